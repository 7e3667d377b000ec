// Organization membership: adding people (creating accounts for new ones), roles, removal.
// Every change is audited and no organization is ever left without an owner.
export { listMembers, addMember, updateMemberRole, removeMember, type MemberInput } from "./members";
