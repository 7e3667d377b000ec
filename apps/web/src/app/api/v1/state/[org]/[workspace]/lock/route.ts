// `backend "http"` lock address: LOCK/UNLOCK (tunnelled as POST + x-terrace-method), and
// GitLab's variant, POST to lock and DELETE to unlock.
import { route } from "@/server/http";
import { lockState, tunnelledMethod, unlockState, type StateParams } from "@/server/state";

export const dynamic = "force-dynamic";

export const POST = route<StateParams>(async (req, params) =>
  tunnelledMethod(req) === "UNLOCK" ? unlockState(req, params) : lockState(req, params),
);

export const DELETE = route<StateParams>(unlockState);
