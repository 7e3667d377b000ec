import { badRequest } from "./http/errors";

// Organization, team and workspace names appear in URLs and in `backend "http"` addresses, so
// they keep to a URL-safe alphabet (as HCP Terraform's do).
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,89}$/;

export function isValidName(name: string): boolean {
  return NAME.test(name);
}

export function checkName(kind: "organization" | "team" | "workspace", name: string): string {
  if (!isValidName(name)) {
    throw badRequest(
      `Invalid ${kind} name "${name.length > 100 ? name.slice(0, 100) + "…" : name}"`,
      `A ${kind} name has 1 to 90 characters: letters, digits, "-" and "_", starting with a letter or digit.`,
    );
  }
  return name;
}
