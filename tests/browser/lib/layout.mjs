// Layout checks run in the page: text that is cut off, clamped or hidden by an ellipsis, boxes wider
// than what holds them, and anything wider than the window.

/// Problems with the visible page as it is now, one sentence each (empty when all text shows).
/// `within` limits the check to one part of the page (a CSS selector).
export function layoutProblems(page, within = 'body') {
  return page.evaluate((rootSel) => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    const name = (el) => {
      let s = el.tagName.toLowerCase();
      if (el.id) s += `#${el.id}`;
      else if (typeof el.className === 'string' && el.className) s += `.${el.className.trim().split(/\s+/).join('.')}`;
      const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
      return text ? `${s} "${text}"` : s;
    };
    const scrolls = (v) => v === 'auto' || v === 'scroll';
    const skipTags = new Set(['SELECT', 'OPTION', 'OPTGROUP', 'TEXTAREA', 'INPUT', 'CANVAS', 'svg', 'path', 'BR', 'SCRIPT', 'STYLE']);
    const root = document.querySelector(rootSel);
    if (!root) return [`nothing matches ${rootSel}`];
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (skipTags.has(el.tagName)) continue;
      if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue; // visually hidden labels
      const cs = getComputedStyle(el);
      const isRoot = el === document.body || el === document.documentElement;
      // 1. Nothing wider than the window (no sideways scrolling, nothing off screen).
      if (!isRoot && (r.left < -1 || r.right > vw + 1) && cs.position !== 'fixed') out.push(`${name(el)} sticks out of the window (${Math.round(r.left)}..${Math.round(r.right)} of ${vw})`);
      if (cs.display === 'inline' || cs.display === 'contents') continue;
      // 2. Content wider than its box (cut off, ellipsis, or spilling into a neighbour).
      if (!scrolls(cs.overflowX) && el.scrollWidth > el.clientWidth + 1 && !isRoot) out.push(`${name(el)} is wider inside (${el.scrollWidth}) than its box (${el.clientWidth})`);
      // 3. Content taller than a box that clips it (line clamps, fixed heights).
      const clipsY = cs.overflowY === 'hidden' || cs.overflowY === 'clip';
      if (clipsY && el.scrollHeight > el.clientHeight + 1 && !isRoot) out.push(`${name(el)} is taller inside (${el.scrollHeight}) than its box (${el.clientHeight})`);
      // 4. Each line of its own text inside its box and inside every box above that clips.
      for (const node of el.childNodes) {
        if (node.nodeType !== 3 || !node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const line of range.getClientRects()) {
          if (line.width < 1) continue;
          for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
            const as = getComputedStyle(a);
            const box = a.getBoundingClientRect();
            const clipX = a === el || as.overflowX !== 'visible';
            const clipY = as.overflowY !== 'visible' && !scrolls(as.overflowY);
            if (clipX && (line.left < box.left - 1 || line.right > box.right + 1)) {
              out.push(`text of ${name(el)} runs out of ${a === el ? 'its box' : name(a)} sideways`);
              break;
            }
            if (clipY && (line.top < box.top - 1 || line.bottom > box.bottom + 1)) {
              out.push(`text of ${name(el)} is cut off by ${name(a)}`);
              break;
            }
            // Text inside a box that scrolls up and down is reached by scrolling it (a long
            // dialog): what holds that box is checked for the box itself.
            if (a !== el && scrolls(as.overflowY)) break;
          }
        }
      }
    }
    return [...new Set(out)];
  }, within);
}
