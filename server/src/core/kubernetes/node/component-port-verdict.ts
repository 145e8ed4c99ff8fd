import type { CoreConfig } from '../../config/config';
import type { WorkspaceModel } from '../../model/workspace-model';
import { calicoFeatures, type CalicoFeatures } from './calico-features';
import type { ComponentPort } from './component-ports';
import { kubeProxyReplacement, type KubeProxyReplacement, presentComponents, type PresentComponents } from './components';

/** What the workspace says of its node components: which run, Calico's features, a kube-proxy replacement. */
export interface NodeComponents {
  readonly present: PresentComponents;
  readonly features: CalicoFeatures;
  readonly replacement: KubeProxyReplacement | undefined;
}

/**
 * A getter for {@link NodeComponents}, scanned on first call only: each of them walks every object, and rules call it
 * only once a port lands on a component's port (rare), so an edit in a workspace without such ports pays nothing.
 */
export function nodeComponentsOnce(model: WorkspaceModel, config: CoreConfig): () => NodeComponents {
  let scanned: NodeComponents | undefined;
  return () => (scanned ??= { present: presentComponents(model.objects, config), features: calicoFeatures(model.objects), replacement: kubeProxyReplacement(model.objects) });
}

/**
 * How sure it is that a node component listens on `row`'s port where a pod or Service takes it:
 * - `error`: on every node (the kubelet; kube-proxy when nothing replaces it), on a control-plane node when
 *   `onControlPlane`, or a CNI / add-on the workspace runs (`evidence`: the setting that turns its Calico feature on);
 * - a `warning` `because` kube-proxy may be replaced (`evidence`: the replacement's setting), the port is a
 *   control-plane one and the node may not be one, or the component is not in the workspace (`absent`);
 * - undefined when the workspace turns the row's Calico feature off: nothing listens there.
 * Each rule words the reason its own way (host-port-reserved, externalip-is-node-ip).
 */
export type PortVerdict =
  | { readonly severity: 'error'; readonly evidence?: string }
  | { readonly severity: 'warning'; readonly because: 'kube-proxy-replaced'; readonly evidence: string }
  | { readonly severity: 'warning'; readonly because: 'not-control-plane' | 'absent' };

/** The {@link PortVerdict} of one row of the component-port table. */
export function componentPortVerdict(row: ComponentPort, components: NodeComponents, onControlPlane: boolean): PortVerdict | undefined {
  const { present, features, replacement } = components;
  if (row.scope === 'every-node') {
    return row.owner === 'kube-proxy' && replacement ? { severity: 'warning', because: 'kube-proxy-replaced', evidence: replacement.evidence } : { severity: 'error' };
  }
  if (row.scope === 'control-plane') return onControlPlane ? { severity: 'error' } : { severity: 'warning', because: 'not-control-plane' };
  if (!present.get(row.scope)) return { severity: 'warning', because: 'absent' };
  const feature = row.feature ? features.get(row.feature) : undefined;
  if (feature && !feature.enabled) return undefined;
  return { severity: 'error', evidence: feature?.evidence };
}
