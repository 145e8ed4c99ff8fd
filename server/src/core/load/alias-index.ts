import { Alias, Document, isAlias, isCollection, isScalar, Node, visit } from 'yaml';

/**
 * Every alias of one document mapped to the node it refers to, found in ONE walk of the document.
 * `yaml`'s own `Alias.resolve(doc)` walks the whole document for each call, so reading a `kind: List` whose
 * items are aliases (`- *a`, 5,000 of them) took seconds to minutes: this index makes alias resolution
 * linear in the document's size.
 *
 * Same answer as `Alias.resolve`: the last node carrying the alias's anchor name that comes before the alias
 * in document order (YAML 1.2.2 §3.2.2.2: an alias refers to the most recent preceding node with that
 * anchor), pre-order, so an alias inside its own anchored collection refers to that collection.
 */
export class AliasIndex {
  private readonly targets = new Map<Alias, Node | undefined>();

  constructor(doc: Document.Parsed) {
    const latest = new Map<string, Node>();
    visit(doc, {
      Node: (_key, node) => {
        if (isAlias(node)) this.targets.set(node, latest.get(node.source));
        else if ((isScalar(node) || isCollection(node)) && node.anchor) latest.set(node.anchor, node);
      },
    });
  }

  /** The node `alias` refers to, or undefined when no anchor of that name precedes it. */
  target(alias: Alias): Node | undefined {
    return this.targets.get(alias);
  }

  /** The first alias (in document order) with no anchor before it, if any. */
  firstUnresolved(): Alias | undefined {
    for (const [alias, target] of this.targets) if (!target) return alias;
    return undefined;
  }
}
