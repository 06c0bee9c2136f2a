// toolwire trace viewer: live list updates and note highlights. No dependencies, no build step.
"use strict";

(function () {
  var POLL_MS = 2000;
  var MAX_ROWS = 500; // a list left open for hours keeps only the newest rows

  function liveList() {
    var table = document.getElementById("traces");
    var toggle = document.getElementById("live-toggle");
    var status = document.getElementById("live-status");
    if (!table || !toggle) return;
    var body = document.getElementById("rows");
    var busy = false;

    function newestId() {
      var first = body.querySelector("tr[data-id]");
      return first ? first.getAttribute("data-id") : "";
    }

    function poll() {
      if (busy || !toggle.checked || document.hidden) return;
      busy = true;
      var url = table.getAttribute("data-api");
      var after = newestId();
      if (after) url += (url.indexOf("?") < 0 ? "?" : "&") + "after=" + encodeURIComponent(after);
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data || !data.traces.length) return;
          // rows the page already shows are skipped (the known newest one may have been pruned)
          var fresh = document.createElement("tbody");
          fresh.innerHTML = data.rows;
          var shown = Object.create(null);
          body.querySelectorAll("tr[data-id]").forEach(function (tr) {
            shown[tr.getAttribute("data-id")] = true;
          });
          var added = 0;
          Array.prototype.slice.call(fresh.rows).reverse().forEach(function (tr) {
            if (!shown[tr.getAttribute("data-id")]) { body.insertBefore(tr, body.firstChild); added += 1; }
          });
          if (!added) return;
          while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
          var empty = document.getElementById("empty");
          if (empty) empty.remove();
          status.textContent = added + (added === 1 ? " new trace" : " new traces");
        })
        .catch(function () { status.textContent = "Live updates paused: the gateway did not answer."; })
        .finally(function () { busy = false; });
    }

    setInterval(poll, POLL_MS);
  }

  function activate(n) {
    document.querySelectorAll(".active").forEach(function (el) { el.classList.remove("active"); });
    if (!n) return;
    document.querySelectorAll("mark[data-notes]").forEach(function (mark) {
      if (mark.getAttribute("data-notes").split(" ").indexOf(n) >= 0) mark.classList.add("active");
    });
    var row = document.getElementById("note-" + n);
    if (row) row.classList.add("active");
  }

  function noteLinks() {
    document.querySelectorAll("a.note-link").forEach(function (link) {
      link.addEventListener("click", function () { activate(link.getAttribute("data-note")); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    liveList();
    noteLinks();
  });
})();
