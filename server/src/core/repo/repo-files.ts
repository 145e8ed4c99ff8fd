import { parseYamlValue as parse } from '../load/parse-documents';
import { isRemoteReference } from '../render/remote';

/**
 * Files that describe how a repository is laid out rather than cluster objects: a kustomization
 * (its `resources` say which files make up one cluster) and a Helm chart's Chart.yaml.
 */
export type RepoFileRole =
  | {
      readonly type: 'kustomization';
      readonly resources: readonly string[];
      readonly patches: readonly string[];
      /** `kind: Component`: a reusable piece that only other kustomizations pull in, never deployed on its own. */
      readonly component?: boolean;
      /**
       * `namespace:` (a non-empty string): kustomize's namespace transformer sets it on every namespaced object this
       * kustomization builds, over any namespace written (see repo/kustomize-view.ts).
       */
      readonly namespace?: string;
      /** `namePrefix:` / `nameSuffix:` (non-empty strings): wrapped around the names of what it builds (see repo/kustomize-view.ts). */
      readonly namePrefix?: string;
      readonly nameSuffix?: string;
    }
  | {
      readonly type: 'helm-chart';
      readonly name: string;
      /** `type: library`: templates for other charts to include; renders nothing on its own. */
      readonly library?: boolean;
      /** `dependencies` entries as written (name, alias, repository), in order. */
      readonly dependencies?: readonly { readonly name: string; readonly alias?: string; readonly repository?: string; readonly condition?: string }[];
    };

const KUSTOMIZATION_NAMES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

export function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

/**
 * The role of a file from its name and content, or undefined for ordinary manifests.
 * Kustomization `resources` (and the older `bases`, and `components`) are kept as written; remote
 * references (URLs, `github.com/...`) are dropped because only local paths can be followed.
 */
export function repoFileRole(file: string, text: string): RepoFileRole | undefined {
  const name = baseName(file);
  if (KUSTOMIZATION_NAMES.has(name)) {
    let value: unknown;
    try {
      value = parse(text);
    } catch {
      return { type: 'kustomization', resources: [], patches: [] };
    }
    const v = (value ?? {}) as Record<string, unknown>;
    const list = (key: string): string[] => (Array.isArray(v[key]) ? (v[key] as unknown[]).filter((x): x is string => typeof x === 'string') : []);
    const resources = [...list('resources'), ...list('bases'), ...list('components')].filter((r) => !isRemoteReference(r));
    // Patch files are partial objects: they belong to the kustomization's cluster (they are not applied).
    const pathsOf = (key: string): string[] =>
      Array.isArray(v[key]) ? (v[key] as unknown[]).flatMap((p) => (typeof p === 'string' && !p.includes('\n') ? [p] : p && typeof (p as Record<string, unknown>).path === 'string' ? [(p as Record<string, string>).path] : [])) : [];
    const patches = [...pathsOf('patchesStrategicMerge'), ...pathsOf('patches'), ...pathsOf('patchesJson6902')];
    const word = (key: string): string | undefined => (typeof v[key] === 'string' && v[key] !== '' ? (v[key] as string) : undefined);
    const [namespace, namePrefix, nameSuffix] = [word('namespace'), word('namePrefix'), word('nameSuffix')];
    return {
      type: 'kustomization', resources, patches, ...(v.kind === 'Component' ? { component: true } : {}),
      ...(namespace ? { namespace } : {}), ...(namePrefix ? { namePrefix } : {}), ...(nameSuffix ? { nameSuffix } : {}),
    };
  }
  if (name === 'Chart.yaml') {
    try {
      const v = parse(text) as Record<string, unknown> | null;
      if (v && typeof v === 'object' && typeof v.name === 'string') {
        const deps = Array.isArray(v.dependencies)
          ? (v.dependencies as unknown[]).flatMap((d) => {
              const dep = d as Record<string, unknown> | null;
              return dep && typeof dep.name === 'string'
                ? [{
                    name: dep.name,
                    ...(typeof dep.alias === 'string' ? { alias: dep.alias } : {}),
                    ...(typeof dep.repository === 'string' ? { repository: dep.repository } : {}),
                    ...(typeof dep.condition === 'string' ? { condition: dep.condition } : {}),
                  }]
                : [];
            })
          : [];
        return { type: 'helm-chart', name: v.name, ...(v.type === 'library' ? { library: true } : {}), ...(deps.length ? { dependencies: deps } : {}) };
      }
    } catch {
      // A broken Chart.yaml is still a chart marker.
    }
    return { type: 'helm-chart', name: '' };
  }
  return undefined;
}
