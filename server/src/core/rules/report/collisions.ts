import type { Span } from '../../source/span';
import type { K8sObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { Finding, Fix, RelatedLocation, Rule } from '../rule';
import { refOf } from '../rule';
import { MESSAGE_MAX } from '../../output/fit-message';

/** One side of a collision: an object's claim at a span. */
export interface CollisionSide {
  readonly object: K8sObject;
  readonly span: Span;
  /** How the other side is described in this side's message, e.g. `nodePort 30080 of Service a/b`. */
  readonly label: string;
}

/**
 * True when two objects are variants of one object (same API group, kind, namespace and name, e.g.
 * a base and its overlay copy): variants never collide with each other.
 */
export function areVariants(a: K8sObject, b: K8sObject): boolean {
  return a.identity === b.identity && a.uid !== b.uid;
}

/**
 * How many sides of one collision get a finding of their own (each naming the others, with at most this many
 * related locations); the sides beyond get one summary finding ({@link collisionSummary}). A port shared by
 * 100,000 Services therefore costs O(sides), not O(sides²), in time, memory and output.
 */
export const MAX_COLLISION_SIDES = 20;

/** The first `max` items (reported one by one) and the rest (summarised), in the given order. */
export function splitSides<T>(sides: readonly T[], max = MAX_COLLISION_SIDES): { readonly shown: readonly T[]; readonly rest: readonly T[] } {
  return sides.length <= max ? { shown: sides, rest: [] } : { shown: sides.slice(0, max), rest: sides.slice(max) };
}

/** At most {@link MAX_COLLISION_SIDES} related locations, in order. */
export function cappedRelated<T>(others: readonly T[], toRelated: (o: T) => RelatedLocation): RelatedLocation[] {
  const out: RelatedLocation[] = [];
  for (const o of others) {
    if (out.length >= MAX_COLLISION_SIDES) break;
    out.push(toRelated(o));
  }
  return out;
}

/**
 * The one finding for the sides of a collision beyond the first {@link MAX_COLLISION_SIDES}: located at the first
 * of them, listing them (five names and "and N more"), with up to MAX related locations.
 * @param what the claim, e.g. `nodePort 30080`
 * @param total how many sides the collision has in all
 */
export function collisionSummary(
  rule: Pick<Rule, 'id' | 'severity'>, rest: readonly { readonly span: Span; readonly label: string; readonly object?: K8sObject }[], what: string, total: number,
  severity: Finding['severity'] = rule.severity,
): Finding[] {
  if (rest.length === 0) return [];
  const first = rest[0];
  return [{
    ruleId: rule.id,
    severity,
    message: fitNames((max) => `${what} is claimed by ${total} objects: the first ${total - rest.length} are reported one by one, these ${rest.length} more only here (${joinNames(rest.map((r) => r.label), max)}); each collides the same way`, MESSAGE_LIST_MAX),
    span: first.span,
    ...(first.object ? { object: refOf(first.object) } : {}),
    related: cappedRelated(rest.slice(1), (r) => ({ span: r.span, message: r.label })),
    fixes: [],
  }];
}

/**
 * Reports a collision on every side, each naming the others (message + related locations), up to
 * {@link MAX_COLLISION_SIDES} sides; beyond, one summary finding ({@link collisionSummary}) covers the rest.
 * Sides that are variants of each other do not count as colliding; a side colliding only with its own
 * variants gets no finding.
 * @param message builds the message for `side` given the sides it collides with
 * @param options.what the claim for the summary finding (default: the first side's label)
 */
export function reportCollision(
  rule: Pick<Rule, 'id' | 'severity'>,
  sides: readonly CollisionSide[],
  message: (side: CollisionSide, others: readonly CollisionSide[]) => string,
  options: { severity?: Finding['severity']; fixes?: (side: CollisionSide, others: readonly CollisionSide[]) => Fix[]; onlySides?: (side: CollisionSide) => boolean; what?: string } = {},
): Finding[] {
  const out: Finding[] = [];
  const eligible = sides.filter((side) => (!options.onlySides || options.onlySides(side)) && side.object.origin.type !== 'builtin');
  // Most collisions have two sides; only a huge one pays for the index of distinct identities.
  const identities = eligible.length > MAX_COLLISION_SIDES ? new Set(sides.map((o) => o.object.identity)) : undefined;
  const rest: CollisionSide[] = [];
  for (const side of eligible) {
    if (out.length >= MAX_COLLISION_SIDES) {
      // A side beyond the cap is summarised if it collides with anything: any other identity (variants never collide).
      if (identities && identities.size > 1) rest.push(side);
      continue;
    }
    const others = sides.filter((o) => o !== side && o.object !== side.object && !areVariants(o.object, side.object));
    if (others.length === 0) continue;
    out.push({
      ruleId: rule.id,
      severity: options.severity ?? rule.severity,
      message: message(side, others),
      span: side.span,
      object: refOf(side.object),
      related: cappedRelated(others, (o) => ({ span: o.span, message: o.label })),
      fixes: options.fixes ? options.fixes(side, others) : [],
    });
  }
  out.push(...collisionSummary(rule, rest, options.what ?? sides[0]?.label ?? 'this port', out.length + rest.length, options.severity));
  return out;
}


/**
 * Room kept for what the core appends to a rule's message after the rule ran: ` (in cluster prod)`,
 * ` (rendered by overlays/prod)`.
 */
export const MESSAGE_SUFFIX_ROOM = 50;

/**
 * The message `render(max)` for the largest name count `max` (from `most` down to 1) whose message fits within
 * {@link MESSAGE_MAX} less {@link MESSAGE_SUFFIX_ROOM}; when even one name does not fit, the one-name message.
 * `render` lists at most `max` names (e.g. with {@link joinNames}`(names, max)`: the first ones and "and N more"),
 * the related locations keeping the full list.
 */
export function fitNames(render: (max: number) => string, most = 2): string {
  for (let max = most; max > 1; max--) {
    const message = render(max);
    if (message.length <= MESSAGE_MAX - MESSAGE_SUFFIX_ROOM) return message;
  }
  return render(1);
}


/** How many names a message lists before "and N more" (related locations list up to {@link MAX_COLLISION_SIDES}). */
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
