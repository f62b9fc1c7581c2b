// The ranges an admin may set for a server without billing (issue 35); shared by the check on the
// server (lib/admin/configuration.ts) and the form's number fields.

/** As many rooms as the largest plan an operator grants (lib/admin/plans.ts). */
export const ROOMS_PER_USER = { min: 1, max: 10_000 } as const;
/** Media flows in a full mesh (docs/design.md "Meetings"): every browser sends to every other. */
export const PARTICIPANTS_PER_MEETING = { min: 2, max: 50 } as const;
