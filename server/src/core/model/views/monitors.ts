import type { Located } from '../../source/span';
import type { K8sObject } from '../objects';
import { LabelSelector, labelSelectorFrom } from './label-selector';
import { asArray, asRecord, cachedView, isIntegerValue, isPortValue, locatedAt, rawAt } from './raw-fields';

export const MONITORING_GROUP = 'monitoring.coreos.com';

/** The namespaces a monitor looks in: `any: true`, `matchNames`, or (empty) its own namespace. */
export type MonitorNamespaces = { readonly any: true } | { readonly any: false; readonly names: readonly string[] };

/** One `endpoints[]` entry of a ServiceMonitor. */
export interface ServiceMonitorEndpoint {
  readonly path: string;
  /** `port`: the name of a Service port; it wins over targetPort. */
  readonly port?: Located<string>;
  /** `targetPort` (deprecated): a container port name or number of the pods behind the Services. */
  readonly targetPort?: Located<number | string>;
}

/** One `podMetricsEndpoints[]` entry of a PodMonitor. */
export interface PodMonitorEndpoint {
  readonly path: string;
  /** `port`: a container port name; wins over portNumber and targetPort. */
  readonly port?: Located<string>;
  /** `portNumber` (operator v0.79+): a container port number the pods must declare. */
  readonly portNumber?: Located<number>;
  /** `targetPort` (deprecated since v0.79): a container port name or number. */
  readonly targetPort?: Located<number | string>;
}

export interface MonitorView<E> {
  readonly kind: 'ServiceMonitor' | 'PodMonitor';
  /** `spec.selector`: Service labels (ServiceMonitor) or pod labels (PodMonitor). */
  readonly selector: LabelSelector;
  readonly namespaces: MonitorNamespaces;
  readonly endpoints: readonly E[];
}

function namespacesOf(obj: K8sObject): MonitorNamespaces {
  const ns = asRecord(rawAt(obj.raw, 'spec.namespaceSelector'));
  if (ns.any === true) return { any: true };
  const names = asArray(ns.matchNames).filter((n): n is string => typeof n === 'string');
  return { any: false, names: names.length ? names : [obj.namespace] };
}

const isName = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * A Prometheus Operator ServiceMonitor (monitoring.coreos.com/v1); undefined for other kinds. Source:
 * prometheus-operator pkg/apis/monitoring/v1/servicemonitor_types.go and types.go (Endpoint: port,
 * targetPort; NamespaceSelector: any, matchNames), v0.80.
 */
export const serviceMonitorView = cachedView((obj: K8sObject): MonitorView<ServiceMonitorEndpoint> | undefined => {
  if (obj.kind !== 'ServiceMonitor' || obj.group !== MONITORING_GROUP) return undefined;
  const endpoints = asArray(rawAt(obj.raw, 'spec.endpoints')).map((_, i): ServiceMonitorEndpoint => {
    const path = `spec.endpoints.${i}`;
    const port = locatedAt(obj, `${path}.port`, isName);
    const targetPort = locatedAt(obj, `${path}.targetPort`, isPortValue);
    return { path, ...(port ? { port } : {}), ...(targetPort ? { targetPort } : {}) };
  });
  return { kind: 'ServiceMonitor', selector: labelSelectorFrom(rawAt(obj.raw, 'spec.selector')) ?? EMPTY, namespaces: namespacesOf(obj), endpoints };
});

/**
 * A Prometheus Operator PodMonitor; undefined for other kinds. Source: prometheus-operator
 * pkg/apis/monitoring/v1/podmonitor_types.go (PodMetricsEndpoint: port > portNumber > targetPort), v0.80.
 */
export const podMonitorView = cachedView((obj: K8sObject): MonitorView<PodMonitorEndpoint> | undefined => {
  if (obj.kind !== 'PodMonitor' || obj.group !== MONITORING_GROUP) return undefined;
  const endpoints = asArray(rawAt(obj.raw, 'spec.podMetricsEndpoints')).map((_, i): PodMonitorEndpoint => {
    const path = `spec.podMetricsEndpoints.${i}`;
    const port = locatedAt(obj, `${path}.port`, isName);
    const portNumber = locatedAt(obj, `${path}.portNumber`, isIntegerValue);
    const targetPort = locatedAt(obj, `${path}.targetPort`, isPortValue);
    return { path, ...(port ? { port } : {}), ...(portNumber ? { portNumber } : {}), ...(targetPort ? { targetPort } : {}) };
  });
  return { kind: 'PodMonitor', selector: labelSelectorFrom(rawAt(obj.raw, 'spec.selector')) ?? EMPTY, namespaces: namespacesOf(obj), endpoints };
});

const EMPTY: LabelSelector = { matchLabels: {}, matchExpressions: [] };
