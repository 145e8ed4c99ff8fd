import type { RepoLayout } from '../../repo/layout';
import type { Finding } from '../rule';

/** The findings rendering produced for one rule (render failures, what was left out, patches without effect). */
export function renderNoteFindings(layout: RepoLayout | undefined, ruleId: string): Finding[] {
  return (layout?.render?.notes ?? [])
    .filter((n) => n.ruleId === ruleId)
    .map((n) => ({ ruleId, severity: n.severity, message: n.message, span: n.span, related: n.related ?? [], fixes: [] }));
}
