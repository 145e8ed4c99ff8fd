import { dirname, relative } from 'node:path';
import { ConfigError, CoreConfig, DEFAULT_CONFIG, parseConfig } from '../core/config/config';
import { ruleIds } from '../core/rules/index';
import { findConfigFile, parseConfigTextLeniently, readConfigText } from '../node/config-file';
import type { KubeNetlintSettings } from '../protocol/messages';

/** The configuration of one workspace folder, with where it came from. */
export interface FolderConfig {
  readonly config: CoreConfig;
  /** `.kube-netlint.yaml` used, if any. */
  readonly configFile?: string;
  /** Folder `exclude` globs are relative to: the config file's folder when it sets `exclude`, else the workspace folder. */
  readonly baseDir: string | undefined;
  /** Readable problems with the settings or the config file, each saying what is ignored (logged and shown). */
  readonly problems: readonly string[];
}

/** The editor settings this server reads (section `kubeNetlint`); other keys (`trace`) are the client's. */
const EDITOR_KEYS = ['nodePortRange', 'kubeProxyMode', 'rules', 'exclude'] as const;

/**
 * Turns editor settings into config values, key by key, so one bad value does not discard the others.
 * Empty `nodePortRange` and `kubeProxyMode: auto` mean "take it from the workspace".
 */
export function editorConfig(settings: unknown, problems: string[]): Partial<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (!settings || typeof settings !== 'object') return out;
  const s = settings as KubeNetlintSettings & Record<string, unknown>;
  const source = 'settings (kubeNetlint)';
  for (const key of EDITOR_KEYS) {
    let value: unknown = s[key];
    if (value === undefined || value === null || value === '') continue;
    if (key === 'kubeProxyMode' && value === 'auto') continue;
    if (key === 'rules' && typeof value === 'object' && !Array.isArray(value)) {
      // Validate each rule id on its own: an unknown id is reported, the other entries still apply.
      const rules: Record<string, unknown> = {};
      for (const [id, sev] of Object.entries(value as Record<string, unknown>)) {
        try {
          parseConfig({ rules: { [id]: sev } }, source, ruleIds);
          rules[id] = sev;
        } catch (err) {
          problems.push(`${(err as Error).message} (this setting is ignored)`);
        }
      }
      value = rules;
    }
    try {
      out[key] = (parseConfig({ [key]: value }, source, ruleIds) as unknown as Record<string, unknown>)[key];
    } catch (err) {
      problems.push(`${(err as Error).message} (this setting is ignored)`);
    }
  }
  return out;
}

/**
 * The effective config of a workspace folder: defaults, then editor settings, then the keys that
 * `.kube-netlint.yaml` (in the folder or an ancestor, as the CLI finds it) sets — the file wins (for `rules`,
 * per rule id), so the editor and CI agree. Never throws: problems are returned and the affected keys fall back. A bad value in the
 * file drops only that key (or that rule entry), as the problem says; a file that is not one YAML mapping is not
 * used at all. (The CLI refuses such a file and exits 2.)
 * @param folderPath the folder's file-system path (undefined for files outside every folder)
 */
export function resolveFolderConfig(folderPath: string | undefined, settings: unknown): FolderConfig {
  const problems: string[] = [];
  const merged: Record<string, unknown> = { ...DEFAULT_CONFIG, ...editorConfig(settings, problems) };
  let baseDir = folderPath;
  const configFile = folderPath ? findConfigFile(folderPath) : undefined;
  const fileKeys = new Set<string>();
  if (configFile) {
    try {
      const file = parseConfigTextLeniently(readConfigText(configFile), configFile);
      const fileConfig = file.config as unknown as Record<string, unknown>;
      // `rules` merge per rule id, so a rule entry the file gets wrong falls back to the editor's like any other key.
      for (const key of file.keys) merged[key] = key === 'rules' ? { ...(merged.rules as object), ...(fileConfig.rules as object) } : fileConfig[key];
      if (file.keys.includes('exclude')) baseDir = dirname(configFile);
      for (const key of file.keys) fileKeys.add(key);
      problems.push(...file.problems);
    } catch (err) {
      problems.push(`${err instanceof ConfigError ? err.message : `${configFile}: ${(err as Error).message}`} (the config file is not used)`);
    }
  }
  // Messages name where the range and the mode came from, as the CLI's do ("nodePortRange in .kube-netlint.yaml").
  const sourceOf = (key: 'nodePortRange' | 'kubeProxyMode'): string | undefined =>
    merged[key] === undefined ? undefined
      : fileKeys.has(key) && configFile ? `${key} in ${relative(folderPath ?? dirname(configFile), configFile)}`
      : `kubeNetlint.${key} setting`;
  const settingSources = { nodePortRange: sourceOf('nodePortRange'), kubeProxyMode: sourceOf('kubeProxyMode') };
  return { config: { ...(merged as unknown as CoreConfig), settingSources }, configFile, baseDir, problems };
}
