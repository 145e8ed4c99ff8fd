/**
 * A list for a message: `a, b, c`, or beyond `max` items the first `max` and `and N more`
 * (`node-1, node-2, node-3 and 7 more`). Related locations, not messages, carry the whole list.
 * @param max how many items are shown before "and N more" (at least 1)
 */
export function firstOf(items: readonly string[], max: number): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}
