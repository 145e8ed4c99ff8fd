/**
 * How a YAML number reaches an int32 field of the API (ports, replicas): kubectl converts the manifest to JSON
 * with sigs.k8s.io/yaml (go-yaml v2 reads `.inf`, `.nan` and integers beyond int64 as float64), and the API
 * server decodes the JSON into Go structs. Sources:
 * - sigs.k8s.io/yaml yaml.go (yamlToJSONTarget: `error converting YAML to JSON: %w` around json.Marshal, v1.4);
 * - Go encoding/json encode.go (`json: unsupported value: +Inf` for non-finite floats; floats of magnitude
 *   ≥ 1e21 or < 1e-6 in exponent form, as JavaScript's String(number) writes them) and decode.go
 *   (UnmarshalTypeError: `json: cannot unmarshal number 1e+30 into Go struct field … of type int32`).
 */

/** True for an integer an int32 field accepts (−2³¹ … 2³¹−1). */
export function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
}

/** A number as YAML writes it: `.inf`, `-.inf`, `.nan`, else JavaScript's (= Go's JSON) form. */
export function yamlNumber(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
  return String(value);
}

/**
 * What goes wrong with a number that is not an int32, quoted from the tool that says it, and a short
 * description for the message; undefined for a valid int32.
 * @param goField the decoder's field name, e.g. `ServicePort.spec.ports.nodePort`
 */
export function int32Failure(value: number, goField: string): { readonly what: string; readonly error: string; readonly by: 'kubectl' | 'the API server' } | undefined {
  if (isInt32(value)) return undefined;
  if (!Number.isFinite(value)) {
    const go = Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
    return { what: 'is not a number JSON can hold', by: 'kubectl', error: `error converting YAML to JSON: json: unsupported value: ${go}` };
  }
  const what = Number.isInteger(value) ? 'is outside the int32 range (-2147483648 to 2147483647)' : 'is not an integer';
  return { what, by: 'the API server', error: `json: cannot unmarshal number ${String(value)} into Go struct field ${goField} of type int32` };
}

/** The value as the user wrote it (from the file), else as YAML reads it: a 30-digit port is not shown as 1.2e+29. */
export function writtenNumber(value: number, written: string | undefined): string {
  const text = written?.trim();
  return text && text.length <= 40 && !/[\n"']/.test(text) ? text : yamlNumber(value);
}
