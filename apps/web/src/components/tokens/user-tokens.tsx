"use client";
import { TokenManager } from "./token-list";

export function UserTokens() {
  return (
    <>
      <h1>API tokens</h1>
      <p className="muted">
        Personal tokens act as you: use one as <code>TF_HTTP_PASSWORD</code> for a <code>backend &quot;http&quot;</code>, or as{" "}
        <code>Authorization: Bearer</code> for the API.
      </p>
      <TokenManager path="/tokens" label="Your API tokens" />
    </>
  );
}
