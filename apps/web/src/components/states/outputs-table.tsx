import { formatValue } from "@/lib/format";
import type { StateOutput } from "@/lib/types";
import { Badge, ValueText } from "../ui";

function typeText(t: unknown): string {
  if (t === null || t === undefined) return "";
  return typeof t === "string" ? t : JSON.stringify(t);
}

/** State outputs; sensitive values never reach the browser (the API sends null), shown masked. */
export function OutputsTable({ outputs }: { outputs: StateOutput[] }) {
  if (outputs.length === 0) return <p className="muted">No outputs.</p>;
  return (
    <table className="table compact" aria-label="Outputs">
      <thead>
        <tr>
          <th>Name</th>
          <th>Type</th>
          <th>Value</th>
        </tr>
      </thead>
      <tbody>
        {outputs.map((o) => (
          <tr key={o.name}>
            <td className="mono">{o.name}</td>
            <td className="mono muted small">{typeText(o.type)}</td>
            <td className="mono value-cell">
              {o.sensitive ? <Badge tone="sensitive">sensitive</Badge> : <ValueText text={formatValue(o.value)} />}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
