import ipaddr from 'ipaddr.js';
import type { ServiceObject } from '../../model/objects';
import type { Located } from '../../source/span';

/**
 * The Kubernetes API server's own value checks, with its exact messages, so findings can quote what
 * `kubectl apply` would print. Sources (v1.33):
 * - staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsValidPortNum, IsValidPortName, IsDNS1123Label)
 * - pkg/apis/core/validation/validation.go (ValidateService, validateServicePort, ValidateNonSpecialIP)
 * - pkg/api/service/util.go (ExternallyAccessible, NeedsHealthCheck)
 */

/** `spec.type` values. */
export const SERVICE_TYPES: readonly string[] = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
/** `ports[].protocol` values (case-sensitive). */
export const PORT_PROTOCOLS: readonly string[] = ['SCTP', 'TCP', 'UDP'];
/** `externalTrafficPolicy` and `internalTrafficPolicy` values. */
export const TRAFFIC_POLICIES: readonly string[] = ['Cluster', 'Local'];

/**
 * How the checks here quote the API server refusing an object: `what: the API server rejects who with "path: detail"`,
 * `path` and `detail` as its field errors print them (apimachinery pkg/util/validation/field ErrorList, v1.33).
 */
export function apiRejects(what: string, who: string, path: string, detail: string): string {
  return `${what}: the API server rejects ${who} with "${path}: ${detail}"`;
}

/**
 * Longest written value a message quotes whole: a longer one (a 40 kB placeholder, a pasted blob) is cut with `…`,
 * as object names are (object-envelope.ts), so a message stays its fact, consequence and fix whatever was written.
 */
export const MAX_SHOWN = 24;

/** `value` cut to {@link MAX_SHOWN} characters (`…` in place of the rest). */
export function cutValue(value: string, max = MAX_SHOWN): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** A written value quoted for a message (`"http"`), cut to {@link MAX_SHOWN} characters. */
export function shown(value: string): string {
  return `"${cutValue(value)}"`;
}

/** A written value of any JSON type for a message, as JSON (`"80"`, `80`, `{"a":1}`), cut to about {@link MAX_SHOWN} characters. */
export function shownJson(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(cutValue(value)) : cutValue(JSON.stringify(value) ?? String(value));
}

/**
 * The API's causes for one value, as findings quote them: the first only. ValidateX lists one cause per broken rule
 * of a value (`${PORT}` breaks two of IANA_SVC_NAME's); one finding per value says it is refused and why.
 */
export function firstCause(causes: readonly string[]): readonly string[] {
  return causes.slice(0, 1);
}

/** The API's `supported values: "A", "B"` list. */
export function supportedValues(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

/** IsValidPortNum: a port number is an integer 1–65535 inclusive. */
export function portNumErrors(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/**
 * IsValidPortName (IANA_SVC_NAME, RFC 6335): the rule for named targetPorts and container port names.
 * Returns the API's messages, in its order; empty when valid.
 */
export function portNameErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errors.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}

/**
 * The API server's message for a name that is not a lowercase RFC 1123 label (IsDNS1123Label's
 * RegexError). It quotes the whole regex, so findings name the rule in words
 * ({@link DNS1123_LABEL_WORDS}) and the rule page quotes this text.
 */
export const DNS1123_LABEL_ERROR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** The regex {@link DNS1123_LABEL_ERROR} quotes (without its quotes). */
export const DNS1123_LABEL_REGEX = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

/** The RFC 1123 label rule in words, for messages: what {@link DNS1123_LABEL_ERROR} says without the regex. */
export const DNS1123_LABEL_WORDS = "lowercase letters, digits and '-', starting and ending with a letter or digit";

/** IsDNS1123Label: the rule for Service port names (not IANA_SVC_NAME); the API's messages, empty when valid. */
export function dns1123LabelErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 63) errors.push('must be no more than 63 characters');
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) errors.push(DNS1123_LABEL_ERROR);
  return errors;
}

/**
 * A valid RFC 1123 label close to `name` (lower-cased, every other character a `-`, no `-` at either end, at most
 * 63 characters), to suggest in messages; undefined when nothing of the name is left (`__`).
 */
export function dns1123LabelLike(name: string): string | undefined {
  const label = name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
  return label && dns1123LabelErrors(label).length === 0 ? label : undefined;
}

/**
 * Parses an IP the way the API server does for legacy fields (netutils.ParseIPSloppy): dotted-quad
 * IPv4 (leading zeros read as decimal) or IPv6 without a zone; undefined when not an IP.
 */
export function parseIpSloppy(text: string): Ip | undefined {
  const quad = text.split('.');
  if (quad.length === 4 && quad.every((o) => /^\d{1,3}$/.test(o))) {
    const decimal = quad.map((o) => String(Number(o))).join('.');
    return ipaddr.IPv4.isValidFourPartDecimal(decimal) ? ipaddr.IPv4.parse(decimal) : undefined;
  }
  if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return undefined;
}

/**
 * True when `text` is a CIDR as the API server reads one for a legacy field (netutils.ParseCIDRSloppy, after
 * netutils.ParseIPNets trims white space): an address as {@link parseIpSloppy} reads it, `/`, and a decimal prefix
 * length of at most 32 (IPv4) or 128 (IPv6). A bare address (`203.0.113.7`, no `/32`) is not a CIDR.
 * Source: kubernetes staging/src/k8s.io/utils/net (ParseIPNets, ParseCIDRSloppy; Go net.ParseCIDR).
 */
export function isCidrSloppy(text: string): boolean {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  if (slash < 0 || trimmed.indexOf('/', slash + 1) >= 0) return false;
  const ip = parseIpSloppy(trimmed.slice(0, slash));
  const prefix = trimmed.slice(slash + 1);
  return ip !== undefined && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (ip.kind() === 'ipv4' ? 32 : 128);
}

type Ip = ipaddr.IPv4 | ipaddr.IPv6;
const inCidr = (ip: Ip, cidr: string): boolean => {
  const [net, bits] = ipaddr.parseCIDR(cidr);
  return net.kind() === ip.kind() && ip.match(net, bits);
};
// Go's net.IP predicates: IsLoopback, IsLinkLocalUnicast, IsLinkLocalMulticast (ff02::/16 with any flags nibble).
const SPECIAL_RANGES: readonly { test: (ip: Ip) => boolean; message: string }[] = [
  { test: (ip) => inCidr(ip, '127.0.0.0/8') || inCidr(ip, '::1/128'), message: 'may not be in the loopback range (127.0.0.0/8, ::1/128)' },
  { test: (ip) => inCidr(ip, '169.254.0.0/16') || inCidr(ip, 'fe80::/10'), message: 'may not be in the link-local range (169.254.0.0/16, fe80::/10)' },
  {
    test: (ip) => inCidr(ip, '224.0.0.0/24') || (ip.kind() === 'ipv6' && ((ip as ipaddr.IPv6).parts[0] & 0xff0f) === 0xff02),
    message: 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
  },
];

/**
 * An IPv4 address written with leading zeros (`010.0.0.1`), in the spelling the API server asks for (`10.0.0.1`);
 * undefined for any other text. Up to v1.35 the API server reads such an address as decimal and warns
 * (`non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"`);
 * from v1.36 StrictIPCIDRValidation (on by default) rejects it in new objects (`must not have leading 0s`).
 * Source: kubernetes staging/src/k8s.io/apimachinery/pkg/api/validation/ip.go (IsValidIPForLegacyField,
 * GetWarningsForIP), v1.33–v1.36.
 */
export function leadingZerosIp(text: string): string | undefined {
  const quad = text.split('.');
  if (quad.length !== 4 || !quad.every((o) => /^\d{1,3}$/.test(o)) || !quad.some((o) => o.length > 1 && o.startsWith('0'))) return undefined;
  return parseIpSloppy(text)?.toString();
}

/**
 * IsValidIP + ValidateNonSpecialIP for `spec.externalIPs[i]`: the API's messages, empty when the
 * address is accepted. IPv4-mapped IPv6 addresses are checked as IPv4, as Go's net.IP does.
 */
export function externalIpErrors(text: string): string[] {
  const parsed = parseIpSloppy(text);
  if (!parsed) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const ip = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  const errors: string[] = [];
  if (ip.toNormalizedString() === (ip.kind() === 'ipv4' ? '0.0.0.0' : '0:0:0:0:0:0:0:0')) errors.push(`may not be unspecified (${text})`);
  for (const range of SPECIAL_RANGES) if (range.test(ip)) errors.push(range.message);
  return errors;
}

/** ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with externalIPs (the latter since v1.29, PR #119150). */
export function externallyAccessible(svc: ServiceObject): boolean {
  const type = svc.type.value;
  return type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && svc.externalIPs.length > 0);
}

/** NeedsHealthCheck: type LoadBalancer with externalTrafficPolicy Local (the only case a healthCheckNodePort is allocated). */
export function needsHealthCheck(svc: ServiceObject): boolean {
  return svc.type.value === 'LoadBalancer' && svc.externalTrafficPolicy?.value === 'Local';
}

/**
 * True when the API server allocates this Service's nodePorts (types NodePort and LoadBalancer). On other types a
 * written nodePort holds no number of the allocator: ValidateService rejects it on ClusterIP, and accepts it on
 * ExternalName, where txnAllocNodePorts allocates nothing (kubernetes pkg/registry/core/service/storage/alloc.go, v1.33).
 */
export function allocatesNodePorts(svc: ServiceObject): boolean {
  return svc.type.value === 'NodePort' || svc.type.value === 'LoadBalancer';
}

/**
 * A nodePort claim the allocator really makes, so that the port is held cluster-wide and open on every node:
 * nodePorts of NodePort/LoadBalancer Services, the healthCheckNodePort of LoadBalancer with externalTrafficPolicy Local.
 */
export function holdsNodePort(c: { readonly field: 'nodePort' | 'healthCheckNodePort'; readonly service: ServiceObject }): boolean {
  return c.field === 'nodePort' ? allocatesNodePorts(c.service) : needsHealthCheck(c.service);
}

/**
 * The nodePorts and healthCheckNodePort of a Service that the API server's allocator refuses as outside the NodePort
 * range (`min`–`max`, inclusive): nodePorts of a Service that allocates them, the healthCheckNodePort of a
 * LoadBalancer with `externalTrafficPolicy: Local`. A healthCheckNodePort outside 1–65535 is left to field validation
 * (rejected before allocation). Source: kubernetes pkg/registry/core/service/portallocator/allocator.go
 * (ErrNotInRange) and pkg/registry/core/service/storage/alloc.go, v1.33.
 */
export function nodePortsOutsideRange(svc: ServiceObject, min: number, max: number): { field: 'nodePort' | 'healthCheckNodePort'; loc: Located<number> }[] {
  const inRange = (p: number): boolean => p >= min && p <= max;
  const out: { field: 'nodePort' | 'healthCheckNodePort'; loc: Located<number> }[] = [];
  if (allocatesNodePorts(svc)) for (const sp of svc.ports) if (sp.nodePort && !inRange(sp.nodePort.value)) out.push({ field: 'nodePort', loc: sp.nodePort });
  const hc = svc.healthCheckNodePort;
  if (hc && needsHealthCheck(svc) && hc.value >= 1 && hc.value <= 65535 && !inRange(hc.value)) out.push({ field: 'healthCheckNodePort', loc: hc });
  return out;
}
