/**
 * RFC 9110 §8.3.1 media types (docs/abuse.md, "Content types"): `type/subtype` tokens and optional
 * `; name=value` parameters (value a token or a quoted string), visible ASCII only, at most 255
 * characters. Anything else cannot travel in an HTTP header, so it is refused at upload (400) and
 * replaced by `application/octet-stream` on download.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~]|\\\\[\\t -~])*"';
const MEDIA_TYPE_RE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*$`);

/** True when `value` is a media type an HTTP header can carry (RFC 9110, ASCII, <= 255 characters). */
export function isMediaType(value: string): boolean {
  return value.length <= 255 && MEDIA_TYPE_RE.test(value);
}
