"use client";
import { useQuery } from "@tanstack/react-query";
import { api, query, wsPath } from "@/lib/api";
import { flatten, formatValue, SENSITIVE_TEXT } from "@/lib/format";
import type { InstanceDetail } from "@/lib/types";
import { Badge, ErrorMessage, Loading, ValueText } from "../ui";

function AttributeTable({ value, label }: { value: unknown; label: string }) {
  const rows = flatten(value);
  return (
    <table className="table compact attrs" aria-label={label}>
      <tbody>
        {rows.map(([path, v]) => (
          <tr key={path}>
            <th scope="row" className="mono">
              {path}
            </th>
            <td className="mono value-cell">
              {v === SENSITIVE_TEXT ? <Badge tone="sensitive">sensitive</Badge> : <ValueText text={formatValue(v)} />}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One instance's attributes (sensitive ones masked by the server), provider, dependencies, deposed objects. */
export function AttributePanel({ org, ws, serial, address, onClose }: { org: string; ws: string; serial: number; address: string; onClose: () => void }) {
  const d = useQuery({
    queryKey: ["instance", org, ws, serial, address],
    queryFn: () => api<InstanceDetail>(`${wsPath(org, ws)}/state-versions/${serial}/instance${query({ address })}`),
    staleTime: Infinity,
  });
  return (
    <aside className="card attr-panel" aria-label="Instance attributes">
      <div className="card-head">
        <h2 className="mono break">{address}</h2>
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose} aria-label="Close attributes">
          ✕
        </button>
      </div>
      <ErrorMessage error={d.error} />
      {d.isPending ? <Loading /> : null}
      {d.data ? (
        <>
          <dl className="facts">
            <dt>Provider</dt>
            <dd className="mono break">{d.data.provider}</dd>
            <dt>Schema version</dt>
            <dd>{d.data.schemaVersion}</dd>
            {d.data.sensitivePaths.length ? (
              <>
                <dt>Sensitive</dt>
                <dd>{d.data.sensitivePaths.length} attribute(s) masked</dd>
              </>
            ) : null}
          </dl>
          <h3>Attributes</h3>
          <AttributeTable value={d.data.attributes} label="Attributes" />
          {d.data.dependencies.length ? (
            <>
              <h3>Dependencies</h3>
              <ul className="plain mono small">
                {d.data.dependencies.map((dep) => (
                  <li key={dep}>{dep}</li>
                ))}
              </ul>
            </>
          ) : null}
          {d.data.deposed.map((o) => (
            <div key={o.key}>
              <h3>
                Deposed object <span className="mono">{o.key}</span>
              </h3>
              <AttributeTable value={o.attributes} label={`Deposed object ${o.key}`} />
            </div>
          ))}
        </>
      ) : null}
    </aside>
  );
}
