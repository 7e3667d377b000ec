// Provisioners on terraform_data (its reason to exist beside null_resource): local-exec at
// create and at destroy, failures tainting the object, on_failure = continue.
import { main, type Scenario } from "../scenario.js";

const withProvisioner = (command: string, extra = "") =>
  `resource "terraform_data" "a" {\n  input = "x"\n  provisioner "local-exec" {\n    command = "${command}"\n${extra}  }\n}\nresource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\n`;

export const PROVISIONERS: Scenario[] = [
  {
    name: "provisioner-local-exec",
    about: "a create-time local-exec provisioner that succeeds: state as without it; not run again on update",
    steps: [main(withProvisioner("true")), main(withProvisioner("true").replace(`input = "x"`, `input = "y"`))],
  },
  {
    name: "provisioner-failure-taints",
    about: "a failing create-time provisioner: apply error, the object is kept tainted, its dependent is not created; the next plan replaces it",
    steps: [main(withProvisioner("exit 1")), main(withProvisioner("true"))],
  },
  {
    name: "provisioner-on-failure-continue",
    about: "on_failure = continue: the failure is ignored and the object is not tainted",
    steps: [main(withProvisioner("exit 1", `    on_failure = continue\n`)), main(withProvisioner("exit 1", `    on_failure = continue\n`))],
  },
  {
    name: "provisioner-destroy-time",
    about: "when = destroy provisioners run on destroy; a failing one keeps the object in state",
    steps: [
      main(withProvisioner("exit 1", `    when    = destroy\n`)),
      main(withProvisioner("exit 1", `    when    = destroy\n`), { mode: "destroy" }),
      main(withProvisioner("true", `    when    = destroy\n`)),
      main(withProvisioner("true", `    when    = destroy\n`), { mode: "destroy" }),
    ],
  },
];
