// Counts one or more cache-tests result files (http-cache-tests, Mark Nottingham's suite) the way
// cache-tests.fyi shows them: pass, required failure, optimal (not required) failure, dependency
// failure, setup failure, check yes/no, untested. Run from the suite's own directory:
//   node summary.mjs results/nginx.json /path/loomgate.json
// Prints a Markdown table, one row per file, and the required failures of each.
import fs from 'fs'
import path from 'path'
import { pathToFileURL } from 'url'

const suiteDir = process.env.CACHE_TESTS_DIR || process.cwd()
const tests = (await import(pathToFileURL(path.join(suiteDir, 'tests/index.mjs')))).default
const surrogate = (await import(pathToFileURL(path.join(suiteDir, 'tests/surrogate-control.mjs')))).default
if (!tests.includes(surrogate)) tests.push(surrogate)

const byId = new Map()
for (const suite of tests) for (const t of suite.tests) byId.set(t.id, t)
const PASS = ['pass', 'yes', 'no', 'optional_fail']

function result (results, id) {
  const t = byId.get(id)
  const r = results[id]
  if (r === undefined) return 'untested'
  if (t.depends_on !== undefined) {
    for (const d of t.depends_on) if (!PASS.includes(result(results, d))) return 'dependency_fail'
  }
  if (Array.isArray(r) && r[0] === 'Setup') return r[1] === 'retry' ? 'retry' : 'setup_fail'
  if (r === false && r[0] !== 'Assertion') return 'harness_fail'
  const kind = t.kind || 'required'
  if (kind === 'required') return r === true ? 'pass' : 'fail'
  if (kind === 'optimal') return r === true ? 'pass' : 'optional_fail'
  return r === true ? 'yes' : 'no'
}

const cols = ['pass', 'fail', 'optional_fail', 'dependency_fail', 'setup_fail', 'retry', 'harness_fail', 'yes', 'no', 'untested']
console.log('| results | ' + cols.join(' | ') + ' |')
console.log('|---|' + cols.map(() => '---').join('|') + '|')
const failures = {}
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(fs.readFileSync(file, 'utf8'))
  const counts = Object.fromEntries(cols.map(c => [c, 0]))
  failures[file] = []
  for (const id of byId.keys()) {
    const r = result(results, id)
    counts[r]++
    if (r === 'fail') failures[file].push(id)
  }
  console.log(`| ${path.basename(file, '.json')} | ` + cols.map(c => counts[c]).join(' | ') + ' |')
}
for (const [file, ids] of Object.entries(failures)) {
  console.log(`\nrequired failures, ${path.basename(file, '.json')}: ${ids.length ? ids.join(', ') : 'none'}`)
}
