import { afterEach, describe, expect, it } from '@jest/globals'
import { changesSince, movedLine, newLines, oldSpans, parseDiff } from '../../scripts/mutation/diff.js'
import { gitRepo, type Repo } from './mutation-repo.js'

const DIFF = `diff --git a/src/a.ts b/src/a.ts
index 1111111..2222222 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -3 +3 @@ export const a = 1
-const b = 2
+const b = 3
@@ -10,2 +9,0 @@ function f() {
-  one()
-  two()
@@ -20,0 +19,3 @@ function g() {
+  x()
+  y()
+  z()
diff --git a/src/old.ts b/src/new.ts
similarity index 90%
rename from src/old.ts
rename to src/new.ts
index 3333333..4444444 100644
--- a/src/old.ts
+++ b/src/new.ts
@@ -1,2 +1,2 @@
-import { x } from './x.js'
-import { y } from './y.js'
+import { x } from '../x.js'
+import { y } from '../y.js'
diff --git a/src/moved.ts b/src/place/moved.ts
similarity index 100%
rename from src/moved.ts
rename to src/place/moved.ts
diff --git a/src/added.ts b/src/added.ts
new file mode 100644
index 0000000..5555555
--- /dev/null
+++ b/src/added.ts
@@ -0,0 +1,4 @@
+a
+b
+c
+d
diff --git a/src/gone.ts b/src/gone.ts
deleted file mode 100644
index 6666666..0000000
--- a/src/gone.ts
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
diff --git a/docs/image.png b/docs/image.png
index 7777777..8888888 100644
Binary files a/docs/image.png and b/docs/image.png differ
`

describe('parseDiff', () => {
  it('reads each file with its hunks, renames, new, deleted and binary files', () => {
    expect(parseDiff(DIFF)).toEqual([
      {
        oldPath: 'src/a.ts',
        newPath: 'src/a.ts',
        binary: false,
        hunks: [
          { oldStart: 3, oldCount: 1, newStart: 3, newCount: 1 },
          { oldStart: 10, oldCount: 2, newStart: 9, newCount: 0 },
          { oldStart: 20, oldCount: 0, newStart: 19, newCount: 3 }
        ]
      },
      {
        oldPath: 'src/old.ts',
        newPath: 'src/new.ts',
        binary: false,
        hunks: [{ oldStart: 1, oldCount: 2, newStart: 1, newCount: 2 }]
      },
      { oldPath: 'src/moved.ts', newPath: 'src/place/moved.ts', binary: false, hunks: [] },
      { newPath: 'src/added.ts', binary: false, hunks: [{ oldStart: 0, oldCount: 0, newStart: 1, newCount: 4 }] },
      { oldPath: 'src/gone.ts', binary: false, hunks: [{ oldStart: 1, oldCount: 2, newStart: 0, newCount: 0 }] },
      { oldPath: 'docs/image.png', newPath: 'docs/image.png', binary: true, hunks: [] }
    ])
  })
})

describe('the lines of a change', () => {
  const [change] = parseDiff(DIFF)
  if (change === undefined) throw new Error('no change parsed')

  it('gives the new lines changed, leaving out pure deletions', () => {
    expect(newLines(change)).toEqual([
      [3, 3],
      [19, 21]
    ])
  })

  it('gives the old stretches changed, an insertion as the point after its line', () => {
    expect(oldSpans(change)).toEqual([
      { from: 3, to: 3 },
      { from: 10, to: 11 },
      { from: 21, to: 20 }
    ])
  })

  it('moves an unchanged old line to where it is now, and has none for a changed one', () => {
    expect([1, 2, 3, 4, 9, 10, 11, 12, 20, 21, 30].map((line) => movedLine(change, line))).toEqual([
      1,
      2,
      undefined,
      4,
      9,
      undefined,
      undefined,
      10,
      18, // the last line before the insertion
      22,
      31
    ])
  })
})

describe('changesSince', () => {
  let repo: Repo | undefined
  afterEach(() => repo?.dispose())

  it('reads the commits since, the uncommitted edits and untracked files, a file moved without git mv as moved', () => {
    repo = gitRepo({
      'src/a.ts': 'one\ntwo\nthree\n',
      'src/old.ts': Array.from({ length: 20 }, (_, index) => `line ${String(index)}`).join('\n') + '\n',
      'docs/readme.md': 'text\n'
    })
    const base = repo.commit()
    repo.write({ 'src/a.ts': 'one\nTWO\nthree\n' })
    repo.commit()
    repo.remove('src/old.ts')
    repo.write({
      'src/new.ts':
        Array.from({ length: 20 }, (_, index) => `line ${String(index === 5 ? 'five' : index)}`).join('\n') + '\n',
      'src/fresh.ts': 'a\nb\n'
    })
    const status = repo.git('status', '--porcelain')
    const objects = repo.git('count-objects')
    expect(changesSince(repo.root, base)).toEqual([
      {
        oldPath: 'src/a.ts',
        newPath: 'src/a.ts',
        binary: false,
        hunks: [{ oldStart: 2, oldCount: 1, newStart: 2, newCount: 1 }]
      },
      { newPath: 'src/fresh.ts', binary: false, hunks: [{ oldStart: 0, oldCount: 0, newStart: 1, newCount: 2 }] },
      {
        oldPath: 'src/old.ts',
        newPath: 'src/new.ts',
        binary: false,
        hunks: [{ oldStart: 6, oldCount: 1, newStart: 6, newCount: 1 }]
      }
    ])
    // Staged in an index and an object folder of their own: the repository's are as they were.
    expect(repo.git('status', '--porcelain')).toBe(status)
    expect(repo.git('count-objects')).toBe(objects)
  })
})
