"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, enc, orgPath } from "@/lib/api";
import type { Team } from "@/lib/types";
import { TokenManager } from "../tokens/token-list";
import { Empty, ErrorMessage, Field, Loading } from "../ui";

/** Team tokens act as their team (for CI): pick a team, then create, list and revoke its tokens. */
export function TeamTokens({ org }: { org: string }) {
  const teams = useQuery({ queryKey: ["teams", org], queryFn: () => api<{ data: Team[] }>(`${orgPath(org)}/teams`) });
  const [team, setTeam] = useState("");
  const chosen = team || teams.data?.data[0]?.name || "";
  return (
    <>
      <div className="page-head">
        <h1>Team tokens</h1>
      </div>
      <p className="muted">A team token has exactly its team&apos;s workspace access. Use them for CI and automation instead of personal tokens.</p>
      <ErrorMessage error={teams.error} />
      {teams.isPending ? (
        <Loading />
      ) : !chosen ? (
        <Empty>Create a team first.</Empty>
      ) : (
        <>
          <div className="toolbar">
            <Field label="Team">
              <select value={chosen} onChange={(e) => setTeam(e.target.value)}>
                {teams.data?.data.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <TokenManager key={chosen} path={`${orgPath(org)}/teams/${enc(chosen)}/tokens`} label={`Tokens of team ${chosen}`} />
        </>
      )}
    </>
  );
}
