import { parseYamlValue as parseYaml } from '../../load/parse-documents';
import { flagValue } from '../../model/cluster-settings';
import type { K8sObject } from '../../model/objects';
import { describe } from '../../model/objects';
import type { ComponentPort } from '../node/component-ports';
import { memoOnComponentEvidence } from '../node/components';
import { kubeProxyContainer } from './strict-arp';

/** Where kube-proxy serves one of its endpoints: a host address and a port (0 = not served). */
export interface KubeProxyListener {
  readonly host: string;
  readonly port: number;
  /** What sets it, for the port table's source column and messages: `KubeProxyConfiguration kube-proxy-config`. */
  readonly source: string;
}

/** kube-proxy's health-check (default 0.0.0.0:10256) and metrics (default 127.0.0.1:10249) listeners, when the workspace moves them. */
export interface KubeProxyListeners {
  readonly healthz?: KubeProxyListener;
  readonly metrics?: KubeProxyListener;
}

const DEFAULT_PORT = { healthz: 10256, metrics: 10249 } as const;
const FIELD = { healthz: 'healthzBindAddress', metrics: 'metricsBindAddress' } as const;
const FLAG = { healthz: ['--healthz-bind-address', '--healthz-port'], metrics: ['--metrics-bind-address', '--metrics-port'] } as const;

/**
 * `host:port`, `[ipv6]:port` or a bare address (the default port then, as older configs were written) of a
 * kube-proxy bind address; undefined when it is neither.
 */
function bindAddress(value: string, defaultPort: number): { host: string; port: number } | undefined {
  const v = value.trim();
  const m = /^\[([^\]]*)\]:(\d+)$/.exec(v) ?? /^([^:]*):(\d+)$/.exec(v);
  if (m) return { host: m[1] || '0.0.0.0', port: Number(m[2]) };
  return /^[0-9a-fA-F.:]+$/.test(v) ? { host: v.replace(/^\[|\]$/g, ''), port: defaultPort } : undefined;
}

/**
 * kube-proxy's listeners as the workspace configures them: `healthzBindAddress` / `metricsBindAddress` of a
 * KubeProxyConfiguration (an object, or the config embedded in the `kube-proxy` ConfigMap, as kubeadm writes it),
 * else the kube-proxy container's `--healthz-bind-address` / `--metrics-bind-address` (or the older
 * `--healthz-port` / `--metrics-port`) flags. A config file wins over flags (kube-proxy ignores the flags a config
 * file also sets, kubernetes/kubernetes#108737); an empty value keeps the default (v1alpha1 defaulting).
 * Sources: https://kubernetes.io/docs/reference/config-api/kube-proxy-config.v1alpha1/ (healthzBindAddress
 * default 0.0.0.0:10256, metricsBindAddress default 127.0.0.1:10249) and
 * https://kubernetes.io/docs/reference/command-line-tools-reference/kube-proxy/ (v1.33).
 * It reads only configuration objects and kube-proxy workloads, so it is memoised on the component evidence: an edit
 * of an application's manifest does not read every workload of the workspace again.
 */
export function kubeProxyListeners(objects: readonly K8sObject[]): KubeProxyListeners {
  return kubeProxyListenersMemo(objects, undefined);
}
const kubeProxyListenersMemo = memoOnComponentEvidence((objects: readonly K8sObject[]): KubeProxyListeners => {
  const fromConfig: { healthz?: KubeProxyListener; metrics?: KubeProxyListener } = {};
  const fromFlags: { healthz?: KubeProxyListener; metrics?: KubeProxyListener } = {};
  const read = (cfg: Record<string, unknown>, source: string) => {
    for (const which of ['healthz', 'metrics'] as const) {
      const v = cfg[FIELD[which]];
      const bound = typeof v === 'string' && v.trim() ? bindAddress(v, DEFAULT_PORT[which]) : undefined;
      if (bound && !fromConfig[which]) fromConfig[which] = { ...bound, source };
    }
  };
  for (const obj of objects) {
    if (obj.kind === 'KubeProxyConfiguration') read(obj.raw, describe(obj));
    else if (obj.kind === 'ConfigMap' && obj.name === 'kube-proxy') {
      for (const [key, text] of Object.entries((obj.raw.data ?? {}) as Record<string, unknown>)) {
        if (typeof text !== 'string') continue;
        let cfg: unknown;
        try {
          cfg = parseYaml(text);
        } catch {
          continue; // not YAML: not a kube-proxy config file
        }
        if (cfg && typeof cfg === 'object' && (cfg as Record<string, unknown>).kind === 'KubeProxyConfiguration') read(cfg as Record<string, unknown>, `${describe(obj)} (${key})`);
      }
    } else if (obj.category === 'workload' && kubeProxyContainer(obj)) {
      for (const which of ['healthz', 'metrics'] as const) {
        if (fromFlags[which]) continue;
        const [bindFlag, portFlag] = FLAG[which];
        const bind = flagValue(obj, bindFlag);
        const port = flagValue(obj, portFlag);
        const bound = bind ? bindAddress(bind.value, DEFAULT_PORT[which]) : port && /^\d+$/.test(port.value) ? { host: which === 'metrics' ? '127.0.0.1' : '0.0.0.0', port: Number(port.value) } : undefined;
        if (bound) fromFlags[which] = { ...bound, source: `${bind ? bindFlag : portFlag} in ${describe(obj)}` };
      }
    }
  }
  return { healthz: fromConfig.healthz ?? fromFlags.healthz, metrics: fromConfig.metrics ?? fromFlags.metrics };
});

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The port table with kube-proxy's rows where the workspace puts them: a moved listener's default row is
 * replaced by one at the configured port (none for port 0), loopback-only when bound to 127.0.0.1 or ::1.
 * Returns `table` itself when nothing is moved.
 */
export function withKubeProxyListeners(table: readonly ComponentPort[], listeners: KubeProxyListeners): readonly ComponentPort[] {
  if (!listeners.healthz && !listeners.metrics) return table;
  const out: ComponentPort[] = [];
  for (const row of table) {
    const which = row.owner !== 'kube-proxy' ? undefined : row.min === DEFAULT_PORT.healthz ? 'healthz' : row.min === DEFAULT_PORT.metrics ? 'metrics' : undefined;
    const moved = which ? listeners[which] : undefined;
    if (!which || !moved) {
      out.push(row);
      continue;
    }
    if (moved.port < 1 || moved.port > 65535) continue;
    const loopback = LOOPBACK.has(moved.host);
    out.push({
      ...row, component: `kube-proxy ${which}${loopback ? ' (127.0.0.1)' : ''}`, min: moved.port, max: moved.port,
      source: `${moved.source} (${moved.host}:${moved.port})`, loopbackOnly: loopback || undefined,
    });
  }
  return out;
}
