import type { Span } from '../../source/span';
import type { K8sObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { Finding, Fix, RelatedLocation, Rule } from '../rule';
import { refOf } from '../rule';

/** One side of a collision: an object's claim at a span. */
export interface CollisionSide {
  readonly object: K8sObject;
  readonly span: Span;
  /** How the other side is described in this side's message, e.g. `nodePort 30080 of Service a/b`. */
  readonly label: string;
}

/**
 * True when two objects are variants of one object (same API group, kind, namespace and name, e.g.
 * a base and its overlay copy): variants never collide with each other (issue 6).
 */
export function areVariants(a: K8sObject, b: K8sObject): boolean {
  return a.identity === b.identity && a.uid !== b.uid;
}

/**
 * Reports a collision on every side, each naming all the others (message + related locations).
 * Sides that are variants of each other do not count as colliding; a side colliding only with its
 * own variants gets no finding.
 * @param message builds the message for `side` given the sides it collides with
 */
export function reportCollision(
  rule: Pick<Rule, 'id' | 'severity'>,
  sides: readonly CollisionSide[],
  message: (side: CollisionSide, others: readonly CollisionSide[]) => string,
  options: { severity?: Finding['severity']; fixes?: (side: CollisionSide, others: readonly CollisionSide[]) => Fix[]; onlySides?: (side: CollisionSide) => boolean } = {},
): Finding[] {
  const out: Finding[] = [];
  for (const side of sides) {
    if (options.onlySides && !options.onlySides(side)) continue;
    if (side.object.origin.type === 'builtin') continue;
    const others = sides.filter((o) => o !== side && o.object !== side.object && !areVariants(o.object, side.object));
    if (others.length === 0) continue;
    const related: RelatedLocation[] = others.map((o) => ({ span: o.span, message: o.label }));
    out.push({
      ruleId: rule.id,
      severity: options.severity ?? rule.severity,
      message: message(side, others),
      span: side.span,
      object: refOf(side.object),
      related,
      fixes: options.fixes ? options.fixes(side, others) : [],
    });
  }
  return out;
}

/** How many names a message lists before "and N more" (related locations still list every one). */
export const MESSAGE_LIST_MAX = 5;

/**
 * Joins names for a message: `a`, `a and b`, `a, b and c`; beyond {@link MESSAGE_LIST_MAX} names the first
 * five and `and N more` (`a, b, c, d, e and 54 more`), so a finding on a port shared by dozens of objects
 * stays readable. Duplicates are kept: callers deduplicate when they need to.
 */
export function joinNames(names: readonly string[], max = MESSAGE_LIST_MAX): string {
  if (names.length > max) return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "Service a/b" list for messages: `Service x/y and Service z/w`, each object once, at most five names (see {@link joinNames}). */
export function listObjects(sides: readonly { object: K8sObject }[]): string {
  return joinNames([...new Set(sides.map((s) => describe(s.object)))]);
}
