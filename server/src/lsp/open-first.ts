import { readManifestText } from '../node/read-file';
import { dirname, join } from 'node:path';
import { analyze } from '../core/analyze';
import type { CoreConfig } from '../core/config/config';
import { loadFile, type LoadedFile } from '../core/load/load-file';
import type { RepoPath } from '../core/repo/layout';
import type { Finding } from '../core/rules/rule';

/**
 * Rules whose findings about an object depend on that object alone (and the settings), never on the rest
 * of the workspace: their findings for a file analysed by itself are the ones the whole workspace gives
 * (tested on the benchmark corpus and the field cases). Rules that compare objects (collisions, selectors,
 * coverage) or read workspace facts (the nodePort range from kube-apiserver flags, the kube-proxy mode,
 * Nodes, CNI settings) wait for the scan.
 */
export const SINGLE_FILE_RULES: ReadonlySet<string> = new Set([
  'yaml-syntax', 'file-skipped', 'object-invalid', 'pod-spec-invalid', 'service-spec-invalid', 'container-port-duplicate',
  'probe-port-unresolved', 'hostport-usage', 'hostnetwork-usage', 'externalip-usage',
]);

/**
 * Repository-layout files looked for in the open file's folder and the folders above it: a kustomization
 * says whether the file is a patch (a partial object), a Chart.yaml that it is a chart's template.
 */
const LAYOUT_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization', 'Chart.yaml'];
/** How many folders up layout files are looked for (a chart's templates sit a few levels below Chart.yaml). */
const LAYOUT_DEPTH = 6;

/**
 * The findings of {@link SINGLE_FILE_RULES} for one document analysed by itself, shown while the workspace
 * scan is still running, so the file in front of the user gets its diagnostics at once whatever the
 * workspace size. Kustomizations and Chart.yaml files of the file's folder and the folders above it are read
 * too, so a patch file (a partial object) or a chart template is known as one.
 */
export function singleFileFindings(file: string, text: string, config: CoreConfig, repoPath?: RepoPath): { loaded: LoadedFile; findings: Finding[] } {
  const options = { defaultNamespace: config.namespace };
  const loaded = loadFile(file, text, options);
  const files = [loaded];
  for (let dir = dirname(file), up = 0; up < LAYOUT_DEPTH && dir !== dirname(dir); dir = dirname(dir), up++) {
    for (const name of LAYOUT_FILES) {
      const path = join(dir, name);
      if (path === file) continue;
      try {
        files.push(loadFile(path, readManifestText(path), options));
      } catch {
        // no such file
      }
    }
  }
  const analysis = analyze(files, config, repoPath ? { repoPath } : {});
  return { loaded, findings: analysis.findings.filter((f) => f.span.file === file && SINGLE_FILE_RULES.has(f.ruleId)) };
}
