// SPEC points 5 and 9: a group has at least two contacts. Apart from the schemas (zod), so that
// the groups list can say why "add" is blocked without loading the form's validation.
export const GROUP_MIN_CONTACTS = 2;
