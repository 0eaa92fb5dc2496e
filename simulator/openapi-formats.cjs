// The formats GitHub's OpenAPI description uses, as RFC 3339 (date-time, date), RFC 3986 (uri),
// RFC 5322 (email, loosely) define them; a uri-template and an int64 are only typed. CommonJS, because
// the validators scripts/openapi-subset.ts generates (schemas/github-rest-validators.cjs) require it.
const { URL } = require('node:url')

module.exports = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uri: (text) => URL.canParse(text),
  'uri-template': true,
  email: /^[^\s@]+@[^\s@]+$/,
  int64: { type: 'number', validate: (n) => Number.isInteger(n) }
}
