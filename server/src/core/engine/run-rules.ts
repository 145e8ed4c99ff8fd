import type { CoreConfig, Severity } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import type { K8sObject } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import type { RepoLayout } from '../repo/layout';
import type { Finding, Rule } from '../rules/rule';
import { fixKeepsJson, isJsonManifest, jsonQuotedFix } from '../rules/fixes/json-manifest';
import { localFix } from '../rules/fixes/local-edits';
import { blockScalarSafeFix } from '../rules/fixes/block-scalar-edit';
import { IGNORE_ANNOTATION } from './suppress';
import { listedRuleIds } from '../load/suppressions';
import { rejectedObjects, RejectedObjects, rememberRejectionContext } from '../kubernetes/api-server/rejection';
import { modelWithout } from '../model/model-without';

/** A rule that threw: its findings are dropped for this run, the other rules still report. */
export interface RuleFailure {
  readonly ruleId: string;
  readonly error: string;
}

export interface RuleRun {
  readonly findings: Finding[];
  readonly failures: RuleFailure[];
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/**
 * Runs every enabled rule over the model, applies severity overrides from `config.rules`, drops
 * suppressed findings (object annotation `kube-netlint.io/ignore`, `# kube-netlint-disable-next-line`) and, but for
 * the rules that report rejections ({@link Rule.reportsRejection}), findings in an object the API server rejects or
 * whose related locations all lie in such objects,
 * and returns findings in a stable order (file, offset, rule id).
 */
export function runRules(rules: readonly Rule[], model: WorkspaceModel, config: CoreConfig, files: ReadonlyMap<string, LoadedFile>, layout?: RepoLayout): RuleRun {
  const findings: Finding[] = [];
  const failures: RuleFailure[] = [];
  const ignoreLists = ignoreListsOf(model.objects);
  const parsed: Parameters<typeof localFix>[2] = new Map();
  rememberRejectionContext(model, files, layout);
  // Objects the API server rejects take part in no other check (kubernetes/api-server/rejection.ts): a finding in one
  // is left out, and so is a finding that exists only because of them (every related location lies in one). A finding
  // that also names an accepted object stays: Services A and B sharing a nodePort still collide when a third one on
  // that port is rejected.
  // The other rules also run over the model without them, so they never name one among a finding's other objects
  // (message and related locations: "also claimed by Service b", not "by Service b and Service c" when c is rejected).
  let rejected: RejectedObjects | undefined;
  const rejections = (): RejectedObjects => (rejected ??= rejectedObjects(model, files, layout));
  const inRejected = (f: Finding): boolean => {
    const r = rejections();
    if (r.none) return false;
    return r.covers(f.span) || (f.related.length > 0 && f.related.every((l) => r.covers(l.span)));
  };
  let accepted: WorkspaceModel | undefined;
  const acceptedModel = (): WorkspaceModel => {
    const r = rejections();
    if (!accepted) {
      accepted = r.none ? model : modelWithout(model, (o) => r.covers(o.extent));
      rememberRejectionContext(accepted, files, layout);
    }
    return accepted;
  };
  for (const rule of rules) {
    const override = config.rules[rule.id];
    if (override === 'off') continue;
    let produced: Finding[];
    try {
      produced = rule.check({ model: rule.reportsRejection ? model : acceptedModel(), config, files, layout });
    } catch (err) {
      failures.push({ ruleId: rule.id, error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
      continue;
    }
    for (const raw of produced) {
      if (isSuppressed(raw, ignoreLists, files) || (!rule.reportsRejection && inRejected(raw))) continue;
      const f = withSafeFixes(raw, files, parsed);
      findings.push(override ? { ...f, severity: override } : f);
    }
  }
  findings.sort(compareFindings);
  return { findings, failures };
}

/**
 * The finding with its fixes made local to the object they name (a value shared through YAML anchors and aliases,
 * see {@link localFix}), without those that cannot be, nor those that would turn a JSON manifest into invalid JSON
 * (a YAML-only edit, a comment); a word written for a JSON string (`tcp` → `TCP`) is written quoted there. A block
 * scalar replaced by one-line text keeps its last line break and what follows ({@link blockScalarSafeFix}).
 */
function withSafeFixes(f: Finding, files: ReadonlyMap<string, LoadedFile>, parsed: Parameters<typeof localFix>[2]): Finding {
  if (!f.fixes.length) return f;
  const fixes = f.fixes.flatMap((fix) => localFix(fix, files, parsed) ?? [])
    .map((fix) => blockScalarSafeFix(fix, files))
    .map((fix) => (fix.edits.some((e) => isJsonManifest(e.span.file)) ? jsonQuotedFix(fix, files) : fix))
    .filter((fix) => !fix.edits.some((e) => isJsonManifest(e.span.file)) || fixKeepsJson(fix, files));
  return fixes.length === f.fixes.length && fixes.every((fix, i) => fix === f.fixes[i]) ? f : { ...f, fixes };
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    (a.span.file < b.span.file ? -1 : a.span.file > b.span.file ? 1 : 0) ||
    a.span.start - b.span.start ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

const ignoreListsMemo = new WeakMap<readonly K8sObject[], ReadonlyMap<string, string>>();

/**
 * The `kube-netlint.io/ignore` annotation values of `objects` by uid (the last object of a uid decides, as a map of
 * every object by uid would), cached per list: the map holds only the annotated objects, so a rule run after an
 * edit does not index every object of the workspace again.
 */
function ignoreListsOf(objects: readonly K8sObject[]): ReadonlyMap<string, string> {
  let out = ignoreListsMemo.get(objects) as Map<string, string> | undefined;
  if (out) return out;
  out = new Map();
  for (const o of objects) {
    const list = o.annotations[IGNORE_ANNOTATION];
    if (list !== undefined) out.set(o.uid, list);
    else if (out.size && out.has(o.uid)) out.delete(o.uid);
  }
  ignoreListsMemo.set(objects, out);
  return out;
}

function isSuppressed(f: Finding, ignoreLists: ReadonlyMap<string, string>, files: ReadonlyMap<string, LoadedFile>): boolean {
  const ignored = f.object && ignoreLists.get(f.object.uid);
  if (ignored !== undefined && ignoreListHas(ignored, f.ruleId)) return true;
  return lineSuppressed(f, files);
}

/** True when a `# kube-netlint-disable-next-line` comment on the line above the finding's line suppresses it. */
export function lineSuppressed(f: Finding, files: ReadonlyMap<string, LoadedFile>): boolean {
  const file = files.get(f.span.file);
  if (!file || file.suppressions.size === 0) return false;
  const line = file.lines.position(f.span.start).line;
  const ids = file.suppressions.get(line);
  return !!ids && (ids.has('*') || ids.has(f.ruleId));
}

/** `"rule-a, rule-b"` or `"*"` / `"all"`. */
export function ignoreListHas(list: string, ruleId: string): boolean {
  return ignoreListIds(list).some((id) => id === ruleId || id === '*' || id === 'all');
}

/**
 * The entries of a `kube-netlint.io/ignore` annotation value (comma or space separated; `*` and `all` stand for every
 * rule), up to a ` -- reason`, read as a disable comment's list is (load/suppressions.ts listedRuleIds).
 */
export function ignoreListIds(list: string): string[] {
  return listedRuleIds(list).map((d) => d.id);
}
