import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { recordMessages } from './seen-messages';
import { sharedDir } from './shared';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'kube-netlint.js');

/** The shared corpus (see {@link sharedDir}; `../shared` beside the repository when there is none, so tests name it). */
export const SHARED = sharedDir() ?? resolve(ROOT, '..', 'shared');

/** Folder of the test renderers (set by test/helpers/render-setup.ts). */
export function renderBin(): string {
  const bin = process.env.KUBE_NETLINT_RENDER_BIN;
  if (!bin) throw new Error('KUBE_NETLINT_RENDER_BIN is not set: run the suite through mocha (.mocharc.json requires render-setup)');
  return bin;
}

/** True when this machine can run a command in a private network namespace (CI runs as root). */
export const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'].find((p) => spawnSync(p, ['-n', 'true']).status === 0);
export const CAN_UNSHARE = UNSHARE !== undefined;

export interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  rendered?: { source: string; line: number; column: number };
  related: { file: string; line: number; message: string }[];
  quickFixes: { title: string; edits: { file: string; line: number; column: number; endLine: number; endColumn: number; offset: number; endOffset: number; newText: string }[] }[];
}

/**
 * Runs the CLI (`--format json`) in `cwd` as a child process inside `unshare -n` (no network at all: a missed
 * remote reference fails instead of reaching out), with only the test renderers and system folders on PATH.
 * @param path PATH for the CLI (default: the test renderers, then /usr/bin:/bin)
 */
export function lintRendered(cwd: string, args: string[], path = `${renderBin()}${delimiter}/usr/bin${delimiter}/bin`, input?: string): { code: number; findings: JsonFinding[]; stderr: string } {
  const r = runRendered(cwd, ['--format', 'json', ...args], path, input);
  let findings: JsonFinding[] = [];
  try {
    findings = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
  } catch {
    throw new Error(`kube-netlint printed no JSON (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
  }
  recordMessages(findings);
  return { code: r.status ?? -1, findings, stderr: r.stderr };
}

/**
 * Runs the CLI with `args` as {@link lintRendered} does (inside `unshare -n`, only the test renderers on PATH).
 * @param input standard input (for `-`); none by default
 */
export function runRendered(cwd: string, args: string[], path = `${renderBin()}${delimiter}/usr/bin${delimiter}/bin`, input?: string): { status: number | null; stdout: string; stderr: string } {
  const argv = [CLI, ...args];
  const env = { PATH: path, HOME: process.env.HOME ?? '/root' };
  const options = { cwd, env, encoding: 'utf8' as const, ...(input !== undefined ? { input } : {}) };
  return CAN_UNSHARE ? spawnSync(UNSHARE!, ['-n', process.execPath, ...argv], options) : spawnSync(process.execPath, argv, options);
}

/**
 * Temp trees for one mocha `describe` (call it in the describe's body: it registers an `after` hook that removes
 * them): `tree(files)` is {@link writeTree}, `removeAfter(dir)` adds a folder made otherwise.
 */
export function scratchTrees(): { tree: (files: Record<string, string>) => string; removeAfter: (dir: string) => void } {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return {
    tree: (files) => {
      const d = writeTree(files);
      dirs.push(d);
      return d;
    },
    removeAfter: (dir) => void dirs.push(dir),
  };
}

/** Writes `{relative path: text}` into a new temp folder and returns it. */
export function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'knl-render-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}
