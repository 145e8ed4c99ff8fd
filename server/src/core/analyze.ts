import type { CoreConfig } from './config/config';
import { runRules, RuleFailure } from './engine/run-rules';
import type { LoadedFile } from './load/load-file';
import type { K8sObject } from './model/objects';
import { buildModel, WorkspaceModel } from './model/workspace-model';
import { allRules } from './rules/index';
import type { Finding, Rule } from './rules/rule';

/** The result of analysing a set of loaded files. */
export interface Analysis {
  readonly model: WorkspaceModel;
  readonly findings: readonly Finding[];
  /** Rules that threw (their findings are missing from this run). */
  readonly failures: readonly RuleFailure[];
  readonly files: ReadonlyMap<string, LoadedFile>;
}

export interface AnalyzeOptions {
  readonly rules?: readonly Rule[];
  /** Objects that are not in files (e.g. from a live cluster). */
  readonly extraObjects?: readonly K8sObject[];
}

/**
 * The core's entry point: model → rules → findings. Pure (no I/O): the CLI and the language server
 * load the files and pass them in.
 */
export function analyze(files: readonly LoadedFile[], config: CoreConfig, options: AnalyzeOptions = {}): Analysis {
  const fileMap = new Map(files.map((f) => [f.file, f]));
  const model = buildModel(files, config, options.extraObjects ?? []);
  const { findings, failures } = runRules(options.rules ?? allRules, model, config, fileMap);
  return { model, findings, failures, files: fileMap };
}
