// The desk's only script besides htmx: copy to clipboard, form checks in the browser (the server
// checks again with the same messages), counters and small conveniences. Everything is delegated
// from document so it also works on content htmx swaps in. No inline handlers: the CSP forbids them.
(function () {
  "use strict";

  function byId(id) { return id ? document.getElementById(id) : null; }

  // --- copy to clipboard ------------------------------------------------------------------------
  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "offscreen";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  }

  function copyText(text) {
    // navigator.clipboard exists only in secure contexts (https, localhost).
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return fallbackCopy(text);
  }

  function onCopy(button) {
    var parts = button.getAttribute("data-copy").split(/\s+/).map(byId).filter(Boolean);
    var text = parts.map(function (el) { return el.textContent.trim(); }).join("\n\n");
    var box = button.closest(".actions");
    var status = box ? box.querySelector(".copy-status") : null;
    copyText(text).then(function () {
      if (status) { status.textContent = button.getAttribute("data-copied") || ""; }
    }, function () {
      if (status) { status.textContent = button.getAttribute("data-failed") || ""; }
    });
  }

  // --- form checks ----------------------------------------------------------------------------
  function fileOf(id) {
    var input = byId(id);
    return input && input.files && input.files.length ? input.files[0] : null;
  }

  function formatSize(bytes) {
    return (Math.ceil(bytes * 10 / (1024 * 1024)) / 10).toFixed(1) + "MB";
  }

  function filled(id) {
    var input = byId(id);
    if (!input) { return false; }
    if (input.type === "checkbox") { return input.checked; }
    return Boolean(input.value.trim());
  }

  // A field may stand in for a required one: a chosen file (data-required-unless: the file and the
  // photo field), or a set of fields that are all filled in (data-required-unless-all: "search
  // related news" with keywords).
  function excused(el) {
    var files = (el.getAttribute("data-required-unless") || "").split(/\s+/).filter(Boolean);
    if (files.some(fileOf)) { return true; }
    var all = (el.getAttribute("data-required-unless-all") || "").split(/\s+/).filter(Boolean);
    return all.length > 0 && all.every(filled);
  }

  function problemOf(el) {
    var value = el.type === "file" ? "" : (el.value || "");
    var msg = el.getAttribute.bind(el);
    if (msg("data-required-msg") && !value.trim() && !excused(el)) {
      return msg("data-required-msg");
    }
    if (msg("data-max-chars") && value.length > Number(msg("data-max-chars"))) {
      return msg("data-max-msg");
    }
    if (msg("data-range-msg") && value.trim()) {
      var digits = value.replace(/,/g, "").trim();
      var number = Number(digits);
      if (!/^\d+$/.test(digits) || number < Number(msg("data-min")) || number > Number(msg("data-max"))) {
        return msg("data-range-msg");
      }
    }
    if (msg("data-items-msg")) {
      var items = value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
      var tooLong = items.some(function (s) { return s.length > Number(msg("data-max-item-chars")); });
      if (items.length > Number(msg("data-max-items")) || tooLong) { return msg("data-items-msg"); }
    }
    if (el.type === "file" && el.files && el.files.length) {
      var file = el.files[0];
      var name = file.name.toLowerCase();
      var allowed = (msg("data-extensions") || "").split(",");
      if (!allowed.some(function (ext) { return ext && name.slice(-ext.length) === ext; })) {
        return msg("data-type-msg");
      }
      if (file.size > Number(msg("data-max-bytes"))) {
        return (msg("data-size-msg") || "").replace("{size}", formatSize(file.size));
      }
    }
    return "";
  }

  function showProblem(el, problem) {
    var box = byId(el.id + "-error");
    if (box) { box.textContent = problem; }
    if (problem) { el.setAttribute("aria-invalid", "true"); } else { el.removeAttribute("aria-invalid"); }
  }

  function checkForm(form) {
    var first = null;
    form.querySelectorAll("input, textarea, select").forEach(function (el) {
      if (!el.id) { return; }
      var problem = problemOf(el);
      showProblem(el, problem);
      if (problem && !first) { first = el; }
    });
    if (first) { first.focus(); }
    return !first;
  }

  // Capture phase: runs before htmx's own submit listener, so a refused form sends nothing.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-validate")) { return; }
    if (!checkForm(form)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (!form.hasAttribute("hx-post")) {
      // A plain post (uploads can take a few seconds): no double submission.
      var button = form.querySelector("button[type=submit]");
      if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    }
  }, true);

  // --- counters and small conveniences ----------------------------------------------------------
  function updateCounter(area) {
    var out = byId(area.getAttribute("data-counter"));
    if (!out) { return; }
    var limit = Number(area.getAttribute("data-max-chars"));
    var length = area.value.length;
    out.textContent = length ? length.toLocaleString("ko-KR") + " / " + limit.toLocaleString("ko-KR") + "자" : "";
    out.classList.toggle("over", length > limit);
  }

  function initCounters(root) {
    root.querySelectorAll("[data-counter]").forEach(updateCounter);
  }

  document.addEventListener("input", function (event) {
    var el = event.target;
    if (!(el instanceof HTMLElement)) { return; }
    if (el.hasAttribute("data-counter")) { updateCounter(el); }
    if (el.hasAttribute("data-selects")) {
      var radio = byId(el.getAttribute("data-selects"));
      if (radio && el.value.trim()) { radio.checked = true; }
    }
    if (el.getAttribute("aria-invalid") === "true" && !problemOf(el)) { showProblem(el, ""); }
  });

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el instanceof HTMLInputElement && el.type === "file" && el.id) {
      showProblem(el, problemOf(el));
    }
  });

  // Sentence provenance: light the source spans the clicked sentence rests on.
  function showSpans(sentence) {
    var box = sentence.closest(".provenance");
    if (!box) { return; }
    box.querySelectorAll(".lit").forEach(function (el) { el.classList.remove("lit"); });
    sentence.classList.add("lit");
    var first = null;
    (sentence.getAttribute("data-spans") || "").split(" ").forEach(function (key) {
      if (!key) { return; }
      var mark = box.querySelector('mark[data-span="' + key + '"]');
      if (mark) { mark.classList.add("lit"); first = first || mark; }
    });
    if (first) { first.scrollIntoView({ block: "nearest" }); }
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var copy = target && target.closest("[data-copy]");
    if (copy) { onCopy(copy); return; }
    var traced = target && target.closest("[data-spans]");
    if (traced) { showSpans(traced); return; }
    var fill = target && target.closest("[data-fill]");
    if (fill) {
      var area = byId(fill.getAttribute("data-fill"));
      if (area) { area.value = fill.textContent.trim(); area.focus(); showProblem(area, ""); }
    }
  });

  // The embargo banner is left out of pages served after its moment; a page kept open past it
  // drops the banner at that moment too.
  function scheduleEmbargoes(root) {
    root.querySelectorAll("[data-embargo-until]").forEach(function (banner) {
      var wait = Date.parse(banner.getAttribute("data-embargo-until")) - Date.now();
      if (isNaN(wait)) { return; }
      if (wait <= 0) { banner.remove(); return; }
      setTimeout(function () { banner.remove(); }, Math.min(wait, 2147483647));
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initCounters(document);
    scheduleEmbargoes(document);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    initCounters(event.target);
    scheduleEmbargoes(event.target);
  });
})();
