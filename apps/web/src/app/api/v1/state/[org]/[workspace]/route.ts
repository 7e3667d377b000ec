// `backend "http"` address: GET the state, POST/PUT a new version (?ID=<lock id> while locked),
// and LOCK/UNLOCK (which apps/web/server.mjs tunnels as POST + x-terrace-method).
import { route } from "@/server/http";
import { getState, lockState, putState, tunnelledMethod, unlockState, type StateParams } from "@/server/state";

export const dynamic = "force-dynamic";

export const GET = route<StateParams>(getState);

export const POST = route<StateParams>(async (req, params) => {
  switch (tunnelledMethod(req)) {
    case "LOCK":
      return lockState(req, params);
    case "UNLOCK":
      return unlockState(req, params);
    case null:
      return putState(req, params);
  }
});

export const PUT = route<StateParams>(putState);
