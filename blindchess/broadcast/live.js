// blindchess live broadcast: keeps the spectators' and the arbiter's page up to date without a reload.
// The page works without it. Reads /events (or /arbiter/events): a "game" message carries a game's row,
// its section (spectators) or its attention section (arbiter) as the server renders them; only the parts
// marked data-field whose content changed are replaced, so the reading position and the focus stay where
// they are. The newest move goes once into the polite live region #latest; running clocks tick each second.
(function () {
  "use strict";
  var body = document.body;
  var source = body.getAttribute("data-events");
  if (!source || !window.EventSource) { return; }
  var texts = JSON.parse(body.getAttribute("data-texts") || "{}");
  var offset = 0;                // server time minus this computer's, in seconds
  var clocks = {};               // game number -> {white, black, running, at}
  var known = {};                // game number -> half-moves the page has shown
  var alerted = {};              // game number -> the last alert said
  var latest = document.getElementById("latest");
  var choice = document.getElementById("announce-choice");

  function games(selector) {
    return Array.prototype.slice.call(document.querySelectorAll(selector));
  }
  games("[data-game]").forEach(function (el) {
    var n = el.getAttribute("data-game");
    var plies = parseInt(el.getAttribute("data-plies") || "0", 10);
    known[n] = Math.max(known[n] || 0, plies);
    var state = el.getAttribute("data-clock-state");
    if (state) { clocks[n] = JSON.parse(state); }
  });

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild;
  }

  function fields(el) {
    var out = {};
    if (el.hasAttribute("data-field")) { out[el.getAttribute("data-field")] = el; }
    Array.prototype.forEach.call(el.querySelectorAll("[data-field]"), function (f) {
      out[f.getAttribute("data-field")] = f;
    });
    return out;
  }

  // Put the new rendering of a game into the page: new parts inserted in number order, the changed
  // fields of a part already there replaced one by one.
  function place(listName, html, number) {
    var list = document.querySelector('[data-list="' + listName + '"]');
    if (!list) { return; }
    if (list.tagName === "TABLE") { list = list.tBodies[0]; }
    var old = list.querySelector(':scope > [data-game="' + number + '"]');
    if (html === null) {
      if (old) { old.remove(); }
      return;
    }
    var fresh = parse(html);
    if (!fresh) { return; }
    if (!old) {
      var after = null;
      Array.prototype.forEach.call(list.children, function (child) {
        var k = parseInt(child.getAttribute("data-game") || "0", 10);
        if (!after && k > number) { after = child; }
      });
      list.insertBefore(fresh, after);
      return;
    }
    var now = fields(fresh);
    var was = fields(old);
    Object.keys(now).forEach(function (name) {
      var a = was[name], b = now[name];
      if (!a) { return; }
      if (b.tagName === "IMG") {
        if (a.getAttribute("src") !== b.getAttribute("src")) { a.setAttribute("src", b.getAttribute("src")); }
        if (a.getAttribute("alt") !== b.getAttribute("alt")) { a.setAttribute("alt", b.getAttribute("alt")); }
      } else if (a.innerHTML !== b.innerHTML) {
        a.innerHTML = b.innerHTML;
      }
      if (a.hidden !== b.hidden) { a.hidden = b.hidden; }
    });
    old.setAttribute("data-plies", fresh.getAttribute("data-plies") || "0");
  }

  function say(number, text) {
    if (!latest || !text) { return; }
    if (choice && choice.value !== "all" && choice.value !== String(number)) { return; }
    latest.textContent = text;
  }

  function offerChoice(number) {
    if (!choice || choice.querySelector('option[value="' + number + '"]')) { return; }
    var option = document.createElement("option");
    option.value = String(number);
    option.textContent = (texts.announce_game || "{number}").replace("{number}", String(number));
    choice.appendChild(option);
  }

  function onGame(event) {
    var data = JSON.parse(event.data);
    var n = String(data.number);
    offset = data.now - Date.now() / 1000;
    if (data.row !== undefined) { place("rows", data.row, data.number); }
    if (data.section !== undefined) { place("sections", data.section, data.number); }
    if (data.attention !== undefined) { place("attention", data.attention, data.number); }
    clocks[n] = data.clock;
    offerChoice(data.number);
    if (data.plies > (known[n] || 0)) {
      known[n] = data.plies;
      say(data.number, data.announce);
    } else if (data.plies < (known[n] || 0)) {
      known[n] = data.plies;
    }
    if (data.alert && alerted[n] !== data.alert) {
      alerted[n] = data.alert;
      say(data.number, data.alert);
    } else if (!data.alert && data.attention === null) {
      delete alerted[n];
    }
    tick();
  }

  function onPage(event) {
    var data = JSON.parse(event.data);
    offset = data.now - Date.now() / 1000;
    var updated = document.querySelector('[data-field="updated"]');
    if (updated && texts.updated) { updated.textContent = texts.updated.replace("{time}", data.updated); }
    var empty = document.querySelector('[data-field="empty"]');
    if (empty) { empty.hidden = data.games > 0; }
    var attention = document.querySelector('[data-list="attention"]');
    var none = document.querySelector('[data-field="attention_none"]');
    if (attention && none) { none.hidden = attention.children.length > 0; }
    var notices = document.querySelector('[data-field="notices"]');
    if (notices && data.notices) {
      var items = data.notices.length ? data.notices : [texts.notices_none || ""];
      var html = items.map(function (t) {
        var li = document.createElement("li");
        li.textContent = t;
        return li.outerHTML;
      }).join("");
      if (notices.innerHTML !== html) { notices.innerHTML = html; }
    }
  }

  // h:mm:ss, or m:ss under an hour (as the server writes them).
  function format(seconds) {
    var whole = Math.max(0, Math.floor(seconds + 1e-9));
    var h = Math.floor(whole / 3600), m = Math.floor(whole % 3600 / 60), s = whole % 60;
    var ss = (s < 10 ? "0" : "") + s;
    return h ? h + ":" + (m < 10 ? "0" : "") + m + ":" + ss : m + ":" + ss;
  }

  function tick() {
    var now = Date.now() / 1000 + offset;
    Object.keys(clocks).forEach(function (n) {
      var c = clocks[n];
      if (!c || !c.running || c[c.running] === null || c[c.running] === undefined) { return; }
      var left = format(c[c.running] - Math.max(0, now - c.at));
      games('[data-game="' + n + '"] [data-clock="' + c.running + '"]').forEach(function (span) {
        if (span.textContent !== left) { span.textContent = left; }
      });
    });
  }

  var stream = new EventSource(source);
  stream.addEventListener("game", onGame);
  stream.addEventListener("page", onPage);
  var status = document.querySelector('[data-field="connection"]');
  stream.addEventListener("error", function () {
    if (status && texts.connection_lost) { status.textContent = texts.connection_lost; }
  });
  stream.addEventListener("open", function () {
    if (status && status.textContent && texts.connection_back) { status.textContent = texts.connection_back; }
  });
  window.setInterval(tick, 1000);
}());
