import type { Metadata } from "next";
import { UserTokens } from "@/components/tokens/user-tokens";

export const metadata: Metadata = { title: "API tokens" };

export default function UserTokensPage() {
  return <UserTokens />;
}
