import { redirect } from "next/navigation";

export default async function OrgSettings({ params }: { params: Promise<{ org: string }> }) {
  redirect(`/app/${(await params).org}/settings/members`);
}
