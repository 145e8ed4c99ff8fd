/**
 * Child process of the rendered differential test (test/render/event-loader-rendered.test.ts), run inside
 * `unshare -n` with the test renderers on PATH: `node rendered-loads.js <cli args…>` in the workspace folder.
 * Reads and renders the workspace as `kube-netlint` does (kustomize builds, Helm templates), then loads the text of
 * every file the analysis read — on disk and rendered — with both parsers and prints, as JSON, how many there were
 * and the first differences between the two LoadedFiles.
 */
import { analyzeWorkspace } from '../../server/out/cli/workspace';
import { parseCliOptions } from '../../server/out/cli/options';
import { loadFile } from '../../server/out/core/load/load-file';
import { loadedFileDifference } from './loaded-diff';

async function main(): Promise<void> {
  const io = { cwd: process.cwd(), stdout: () => undefined, stderr: (t: string) => process.stderr.write(t), readStdin: () => '', env: process.env };
  const { analysis } = await analyzeWorkspace(parseCliOptions(process.argv.slice(2)), io);
  let files = 0;
  let rendered = 0;
  let objects = 0;
  const differences: string[] = [];
  for (const file of analysis.files.values()) {
    if (file.template) continue;
    files++;
    if (file.render) rendered++;
    // The namespace a render gives objects without one does not change how the YAML reads; any fixed one will do.
    const expected = loadFile(file.file, file.text, { parser: 'yaml', defaultNamespace: 'ns' });
    const actual = loadFile(file.file, file.text, { parser: 'events', defaultNamespace: 'ns' });
    objects += expected.objects.length;
    const difference = loadedFileDifference(expected, actual);
    if (difference && differences.length < 10) differences.push(`${file.file}: ${difference}`);
  }
  process.stdout.write(JSON.stringify({ files, rendered, objects, differences }));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(2);
});
