// Installed before any page script runs (BrowserContext.add_init_script). It remembers, without changing
// behaviour, which elements got click-like listeners and the closed shadow roots pages attach, so the
// extraction walk can see custom widgets and closed shadow DOM.
(() => {
  if (window.__browserAgentHooks) return;
  const clicky = new WeakSet();
  const shadows = new WeakMap();
  const CLICKY = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "dblclick"]);
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (CLICKY.has(type) && this instanceof Element) clicky.add(this);
    return add.call(this, type, listener, options);
  };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    if (init && init.mode === "closed") shadows.set(this, root);
    return root;
  };
  Object.defineProperty(window, "__browserAgentHooks", { value: { clicky, shadows }, configurable: true });
})();
