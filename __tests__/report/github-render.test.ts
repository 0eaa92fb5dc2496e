// renderLikeGitHub: what GitHub keeps, what its tagfilter and sanitizer remove, and where raw HTML
// blocks end, which is what a job summary written as one HTML block relies on.
import { describe, expect, it } from '@jest/globals'
import { renderLikeGitHub } from '../../scripts/github-render.js'

describe('renderLikeGitHub', () => {
  it('keeps the markup a summary uses unchanged', () => {
    const block = [
      '<h2>Docs updated</h2>',
      '<p>Opened <a href="https://github.com/acme/docs/pull/42">acme/docs#42</a>.</p>',
      '<table><tr><th align="left">Status</th><td><code>completed</code></td></tr></table>',
      '<details><summary>Prompt</summary><pre>Fix the &lt;b&gt; typo</pre></details>'
    ].join('\n')
    const { html, removed } = renderLikeGitHub(`${block}\n`)
    expect(removed).toEqual([])
    // Same elements and attributes; only the implied <tbody> and the entity spelling differ.
    expect(html).toBe(
      [
        '<h2>Docs updated</h2>',
        '<p>Opened <a href="https://github.com/acme/docs/pull/42">acme/docs#42</a>.</p>',
        '<table><tbody><tr><th align="left">Status</th><td><code>completed</code></td></tr></tbody></table>',
        '<details><summary>Prompt</summary><pre>Fix the &#x3C;b> typo</pre></details>\n'
      ].join('\n')
    )
  })

  it('escapes what the tagfilter catches and reports it', () => {
    const { html, removed } = renderLikeGitHub(
      '<div><script>alert(1)</script><iframe src="https://x.test"></iframe></div>\n'
    )
    expect(removed).toEqual([
      { by: 'tagfilter', element: 'script' },
      { by: 'tagfilter', element: 'iframe' }
    ])
    // Escaped, they show as text rather than run.
    expect(html).toBe(
      '<div>&#x3C;script>alert(1)&#x3C;/script>&#x3C;iframe src="https://x.test">&#x3C;/iframe></div>\n'
    )
  })

  it('reports the elements and attributes the sanitizer drops or rewrites', () => {
    const { html, removed } = renderLikeGitHub(
      [
        '<p style="color: red">Hi <img src="https://x.test/a.png" onerror="alert(1)"></p>',
        '<a href="javascript:alert(1)">link</a> <span id="top">top</span> <marquee>old</marquee> <!-- note -->'
      ].join('\n')
    )
    expect(removed).toEqual([
      { by: 'sanitizer', element: 'p', attribute: 'style', value: 'color: red' },
      { by: 'sanitizer', element: 'img', attribute: 'onerror', value: 'alert(1)' },
      { by: 'sanitizer', element: 'a', attribute: 'href', value: 'javascript:alert(1)' },
      { by: 'sanitizer', element: 'span', attribute: 'id', value: 'top', after: 'user-content-top' },
      { by: 'sanitizer', element: 'marquee' },
      { by: 'sanitizer', element: '#comment' }
    ])
    // Unknown elements are unwrapped: their text stays.
    expect(html).toBe(
      '<p>Hi <img src="https://x.test/a.png"></p>\n<a>link</a> <span id="user-content-top">top</span> old '
    )
  })

  it('leaves markdown literal inside one HTML block and interprets it after a blank line', () => {
    const { html } = renderLikeGitHub('<h2>Title</h2>\n**inside**\n\n**after**\n')
    expect(html).toBe('<h2>Title</h2>\n**inside**\n<p><strong>after</strong></p>\n')
  })

  it('ends the HTML block at a blank line inside a <pre> that does not start it', () => {
    // A block opened by <details> ends at the first blank line, even within <pre>: the rest becomes a
    // markdown paragraph, and the closing tags land inside it.
    const { html } = renderLikeGitHub('<details><summary>Prompt</summary><pre>one\n\n**two**</pre></details>\n')
    expect(html).toBe(
      '<details><summary>Prompt</summary><pre>one\n<p><strong>two</strong></p></pre></details><p></p>\n'
    )
    // Only a block that opens with <pre> itself runs to its </pre>, blank lines included.
    expect(renderLikeGitHub('<pre>one\n\n**two**</pre>\n').html).toBe('<pre>one\n\n**two**</pre>\n')
  })
})
