/**
 * Names people type (a player's name, an account holder's name) as the site
 * keeps them. Bidirectional controls (U+202A–U+202E, U+2066–U+2069 and the
 * invisible direction marks) can make a name read differently from what it
 * is ("Ravi\u202Etnuocca" shows as "Raviaccount") on the operator's payout
 * list, so they are removed, with every other control character; spaces are
 * collapsed and the text is put in Unicode's composed form.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export const cleanName = (text: string) =>
  text.normalize("NFC").replace(/\s/g, " ").replace(INVISIBLE, "").replace(/ {2,}/g, " ").trim()

