/** What the renderer sees in place of a stored secret (the last characters may follow it). */
export const SECRET_MASK = '••••';
