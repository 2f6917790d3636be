/*! Support chat embed loader. README "Put the chat on your site". No dependencies. */
(function (window, document) {
  'use strict';
  // <script src="https://support.example.com/embed.js" async></script> puts the launcher on the page;
  // the chat runs in a frame of that origin (/embed), so neither page's CSS or scripts touch the other.
  // Messages both ways are { source: 'support-chat', type, ... }, checked for origin and window on
  // both sides (components/chat/embed/protocol.ts lists them).
  var SOURCE = 'support-chat';
  var script = document.currentScript;
  var stub = window.SupportChat;
  if (!script || (stub && stub.loaded)) return;
  var appOrigin = new URL(script.src, location.href).origin;
  var data = script.dataset;
  var options = { container: data.container };
  if (data.userId) options.user = { userId: data.userId, signature: data.userSignature, name: data.userName, email: data.userEmail };
  var listeners = {};
  var queued = [];
  var frame, inline, ready = false, opened = false, side = 'right', size = [0, 0], lastPage = '';
  var sheet = window.matchMedia('(max-width: 639.98px), (max-height: 499.98px)');

  function page() {
    return { url: location.href, title: document.title };
  }

  function send(message) {
    message.source = SOURCE;
    if (message.type === 'open' || message.type === 'ask') frame.focus();
    frame.contentWindow.postMessage(message, appOrigin);
  }

  function post(message) {
    if (ready) send(message);
    else queued.push(message);
  }

  function emit(name, detail) {
    (listeners[name] || []).slice().forEach(function (listener) {
      try {
        listener(detail);
      } catch (error) {
        setTimeout(function () { throw error; });
      }
    });
  }

  // Inline and !important after `all: initial`: the page's own CSS cannot resize, hide or restyle the
  // frame. Set through the CSSOM (style.cssText), which a host CSP without 'unsafe-inline' allows.
  function layout() {
    if (!frame) return;
    var css = { display: 'block', border: '0', margin: '0', padding: '0', background: 'transparent', 'color-scheme': 'light', visibility: ready ? 'visible' : 'hidden', 'max-width': '100%' };
    if (inline) {
      css.width = '100%';
      css.height = '100%';
      css['min-height'] = '420px';
    } else {
      css.position = 'fixed';
      css['z-index'] = '2147483000';
      if (opened && sheet.matches) {
        css.top = css.left = '0';
        css.width = css.height = '100%';
      } else if (opened) {
        css.bottom = css[side] = '16px';
        css.width = 'min(400px, calc(100vw - 32px))';
        css.height = 'min(680px, calc(100vh - 32px))';
        css['border-radius'] = '16px';
        css['box-shadow'] = '0 24px 48px -12px rgba(15,23,42,.35), 0 0 0 1px rgba(15,23,42,.1)';
      } else {
        css.bottom = css[side] = '8px';
        css.width = (size[0] || 1) + 'px';
        css.height = (size[1] || 1) + 'px';
      }
    }
    var text = 'all: initial !important;';
    for (var key in css) text += key + ': ' + css[key] + ' !important;';
    frame.style.cssText = text;
  }

  function receive(event) {
    var message = event.data;
    if (event.origin !== appOrigin || event.source !== frame.contentWindow || !message || message.source !== SOURCE) return;
    if (message.type === 'ready') {
      ready = true;
      if (message.title) frame.title = message.title;
      side = message.position === 'bottom-left' ? 'left' : 'right';
      send({ type: 'init', user: options.user, page: page() });
      queued.splice(0).forEach(send);
      layout();
    } else if (message.type === 'state') {
      opened = !!message.open;
      if (!opened && message.width) size = [message.width, message.height];
      layout();
    } else if (message.type === 'event') {
      emit(message.name, message.detail);
    }
  }

  function watchPage() {
    var now = page();
    var key = now.url + '\n' + now.title;
    if (key === lastPage) return;
    lastPage = key;
    if (ready) send({ type: 'page', page: now });
  }

  function mount() {
    var container = options.container ? document.querySelector(options.container) : document.querySelector('[data-support-chat]');
    if (options.container && !container && window.console) console.warn('SupportChat: no element matches ' + options.container + ': showing the launcher instead');
    inline = !!container;
    frame = document.createElement('iframe');
    frame.title = 'Support chat';
    frame.src = appOrigin + '/embed?host=' + encodeURIComponent(location.origin) + (inline ? '&inline=1' : '');
    layout();
    window.addEventListener('message', receive);
    if (sheet.addEventListener) sheet.addEventListener('change', layout);
    (container || document.body).appendChild(frame);
    lastPage = page().url + '\n' + page().title;
    setInterval(watchPage, 1000);
    setTimeout(function () {
      if (!ready) emit('error', { message: 'the chat did not load: is ' + location.origin + ' in EMBED_ALLOWED_ORIGINS?' });
    }, 15000);
  }

  var commands = {
    init: function (settings) {
      settings = settings || {};
      if ('user' in settings) options.user = settings.user || undefined;
      if (settings.container) options.container = settings.container;
      if (ready) send({ type: 'init', user: options.user, page: page() });
    },
    open: function () { post({ type: 'open' }); },
    close: function () { post({ type: 'close' }); },
    ask: function (text) { post({ type: 'ask', text: String(text) }); },
    reset: function () { post({ type: 'reset' }); },
    on: function (name, listener) { (listeners[name] = listeners[name] || []).push(listener); },
    off: function (name, listener) {
      listeners[name] = (listeners[name] || []).filter(function (l) { return l !== listener; });
    },
  };

  function SupportChat(command) {
    var run = commands[command];
    if (run) return run.apply(null, [].slice.call(arguments, 1));
    if (window.console) console.warn('SupportChat: unknown command ' + command);
  }
  for (var name in commands) SupportChat[name] = commands[name];
  SupportChat.loaded = true;
  window.SupportChat = SupportChat;

  // Calls made before this script ran, through the snippet's queue: SupportChat('init', {...}), …
  ((stub && stub.q) || []).forEach(function (args) { SupportChat.apply(null, args); });

  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})(window, document);
