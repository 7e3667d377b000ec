// Teams: the unit that holds workspace grants and team API tokens.
export { listTeams, findTeam, getTeam, createTeam, updateTeam, deleteTeam, addTeamMember, removeTeamMember } from "./teams";
