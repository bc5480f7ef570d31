// Message text is untrusted. Rendered markdown must never carry script, event handlers, or links
// other than http(s)/mailto (and our inert mention chips), whatever contacts send.
import { describe, expect, it } from 'vitest';
import { renderMessageHtml } from '../../renderer/src/markdown/render';

function parse(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

/** Everything that could run code or leave the app, found in the rendered DOM. */
function dangers(html: string): string[] {
  const root = parse(html);
  const found: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    if (['script', 'iframe', 'img', 'svg', 'object', 'embed', 'style', 'form', 'input', 'math', 'video', 'audio', 'link', 'meta', 'base'].includes(tag)) found.push(`<${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      if (/^on/i.test(attr.name)) found.push(`${tag}[${attr.name}]`);
      if (['src', 'srcset', 'style', 'action', 'formaction', 'xlink:href', 'background'].includes(attr.name)) found.push(`${tag}[${attr.name}]`);
      if (attr.name === 'href' && !/^(https?:\/\/|mailto:)/i.test(attr.value)) found.push(`${tag}[href=${attr.value}]`);
    }
  }
  return found;
}

const attacks: [string, string][] = [
  ['script tag', 'Hey <script>alert("xss")</script> is this safe?'],
  ['script tag split across lines', '<scr\nipt>alert(1)</script>'],
  ['javascript: markdown link', 'Check my site: [click here](javascript:alert(document.cookie))'],
  ['mixed-case, entity-encoded javascript: link', '[a](JaVaScRiPt:alert(1)) [b](java&#x09;script:alert(1)) [c](&#106;avascript:alert(1))'],
  ['javascript: autolink', '<javascript:alert(1)>'],
  ['vbscript: link', '[x](vbscript:msgbox(1))'],
  ['onerror attribute', '<img src=x onerror="alert(1)"> my logo does not load'],
  ['event handler in a link title', '[x](https://example.com "a\\" onmouseover=\\"alert(1)")'],
  ['data: URL link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['data: image', '![x](data:image/png;base64,iVBORw0KGgo=)'],
  ['remote image (tracking pixel)', '![pixel](https://tracker.example/p.gif)'],
  ['nested HTML', '<b>bold?</b> and <iframe src="https://evil.example"></iframe>'],
  ['nested tags that reassemble', '<<script>script>alert(1)<</script>/script>'],
  ['svg onload', '<svg><g/onload=alert(2)//<p>'],
  ['html in a code span and a fence', '`<img src=x onerror=alert(1)>`\n\n```html\n<script>alert(1)</script>\n```'],
  ['file: link', '[x](file:///etc/passwd)'],
  ['protocol-relative link', '[x](//evil.example/a)'],
  ['style injection', '<style>body{display:none}</style><div style="position:fixed">x</div>'],
];

describe('renderMessageHtml', () => {
  it.each(attacks)('neutralises %s', (_name, text) => {
    const html = renderMessageHtml(text);
    expect(dangers(html)).toEqual([]);
  });

  it('shows raw HTML as text rather than dropping what the contact wrote', () => {
    const root = parse(renderMessageHtml('Hey <script>alert("xss")</script> is this safe?'));
    expect(root.textContent).toContain('<script>alert("xss")</script>');
    expect(root.querySelector('script')).toBeNull();
  });

  it('keeps a javascript: link as inert text', () => {
    const root = parse(renderMessageHtml('[click here](javascript:alert(document.cookie))'));
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('click here');
  });

  it('renders markdown: emphasis, lists, code, and safe links marked to open externally', () => {
    const root = parse(renderMessageHtml('Sorry! I **refunded** it, see *Settings*.\n\n1. Open\n2. Export\n\n`code` https://example.com/docs/sso and [mail](mailto:help@example.com)'));
    expect(root.querySelector('strong')?.textContent).toBe('refunded');
    expect(root.querySelector('em')?.textContent).toBe('Settings');
    expect(root.querySelectorAll('ol li')).toHaveLength(2);
    expect(root.querySelector('code')?.textContent).toBe('code');
    const links = Array.from(root.querySelectorAll('a')).map((a) => [a.getAttribute('href'), a.getAttribute('rel')]);
    expect(links).toEqual([
      ['https://example.com/docs/sso', 'noopener noreferrer nofollow'],
      ['mailto:help@example.com', 'noopener noreferrer nofollow'],
    ]);
  });

  it('turns mentions into inert chips with the user id', () => {
    const root = parse(renderMessageHtml('[@Jordan Lee](mention://user/3/Jordan%20Lee) can you look?'));
    const chip = root.querySelector('a.mention');
    expect(chip?.getAttribute('data-mention-user')).toBe('3');
    expect(chip?.hasAttribute('href')).toBe(false);
    expect(chip?.textContent).toBe('@Jordan Lee');
  });
});
