/** Role ids of SPEC section 6 (plain, so the first page reads them without the schemas' runtime). */
export const Roles = {
  DIRECTOR: 1,
  SUPPORT_ADMIN: 2,
  AGENT: 3,
  PLAYER: 4,
  CREDIT_AGENT: 5,
  WHITE_LABEL: 11,
  ADMIN: 101,
  SUPER_MASTER: 102,
  MASTER: 103,
  CREDIT_PLAYER: 104
} as const
