// bc-report page: renders the Vega-Lite charts and the trajectory browser.
// Record text is data: it reaches the page only through textContent and validated data: image URLs, never HTML.
(function () {
  "use strict";

  function readJson(id) {
    return JSON.parse(document.getElementById(id).textContent);
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of [].concat(children === undefined ? [] : children)) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // ---- charts
  function renderCharts(charts) {
    // ast: Vega interprets its expressions instead of compiling them with Function(), so the page needs no unsafe-eval
    const options = { renderer: "svg", ast: true, actions: { export: true, source: false, compiled: false, editor: false } };
    return Promise.all(charts.map(function (chart) {
      const target = document.getElementById(chart.id + "-view");
      return window.vegaEmbed(target, chart.spec, options).catch(function (err) {
        target.appendChild(el("p", { class: "chart-error" }, "This plot failed to render: " + err));
        console.error("bc-report: plot " + chart.id + " failed: " + err);
      });
    })).then(function () { document.body.setAttribute("data-charts", "rendered"); });
  }

  // ---- trajectory browser
  const PAGE = 100;

  function Browser(data) {
    this.all = data.trajectories;
    this.images = data.images;
    this.shown = PAGE;
    this.selected = null;
    this.controls = {
      run: document.getElementById("f-run"), bootcamp: document.getElementById("f-bootcamp"),
      group: document.getElementById("f-group"), status: document.getElementById("f-status"),
      outcome: document.getElementById("f-outcome"), min: document.getElementById("f-score-min"),
      max: document.getElementById("f-score-max"), tool: document.getElementById("f-tool-error"),
      text: document.getElementById("f-text"),
    };
    const uniq = (key) => Array.from(new Set(this.all.map((t) => t[key]))).sort();
    this.fill(this.controls.run, uniq("run"));
    this.fill(this.controls.bootcamp, uniq("bootcamp"));
    this.fill(this.controls.group, uniq("group"));
    this.fill(this.controls.status, uniq("status"));
    const types = Array.from(new Set([].concat.apply([], this.all.map((t) => t.tool_errors)))).sort();
    for (const type of types) this.controls.tool.appendChild(el("option", { value: "type:" + type }, "error: " + type));
    if (uniq("run").length < 2) this.controls.run.parentNode.style.display = "none";
    for (const control of Object.values(this.controls)) {
      control.addEventListener("input", () => { this.shown = PAGE; this.render(); });
      control.addEventListener("change", () => { this.shown = PAGE; this.render(); });
    }
    document.getElementById("traj-more").addEventListener("click", () => { this.shown += PAGE; this.render(); });
    this.render();
  }

  Browser.prototype.fill = function (select, values) {
    for (const value of values) select.appendChild(el("option", { value: value }, value));
  };

  Browser.prototype.matches = function (t) {
    const c = this.controls;
    if (c.run.value && t.run !== c.run.value) return false;
    if (c.bootcamp.value && t.bootcamp !== c.bootcamp.value) return false;
    if (c.group.value && t.group !== c.group.value) return false;
    if (c.status.value && t.status !== c.status.value) return false;
    if (c.outcome.value === "failed" && t.passed) return false;
    if (c.outcome.value === "passed" && !t.passed) return false;
    const min = parseFloat(c.min.value), max = parseFloat(c.max.value);
    if (!isNaN(min) && t.score < min) return false;
    if (!isNaN(max) && t.score > max) return false;
    const tool = c.tool.value;
    if (tool === "with" && t.tool_errors.length === 0) return false;
    if (tool === "without" && t.tool_errors.length > 0) return false;
    if (tool.startsWith("type:") && t.tool_errors.indexOf(tool.slice(5)) < 0) return false;
    const text = c.text.value.trim().toLowerCase();
    if (text && t.id.toLowerCase().indexOf(text) < 0 && t.task_id.toLowerCase().indexOf(text) < 0) return false;
    return true;
  };

  Browser.prototype.render = function () {
    const hits = this.all.filter((t) => this.matches(t));
    const body = document.querySelector("#traj-list tbody");
    body.replaceChildren();
    for (const t of hits.slice(0, this.shown)) {
      const row = el("tr", { "data-id": t.id }, [
        el("td", {}, t.id), el("td", {}, t.run), el("td", {}, t.bootcamp), el("td", {}, t.group),
        el("td", { class: t.passed ? "pass" : "fail" }, t.status + (t.passed ? " ✓" : " ✗")),
        el("td", { class: "num" }, t.score.toFixed(3)), el("td", { class: "num" }, t.turns),
        el("td", { class: "num" }, t.tool_calls), el("td", {}, t.tool_errors.join(", ")),
      ]);
      if (this.selected === t) row.className = "selected";
      row.addEventListener("click", () => { this.selected = t; this.render(); this.detail(t); });
      body.appendChild(row);
    }
    document.getElementById("traj-count").textContent =
      hits.length + " of " + this.all.length + " embedded trajectories match" +
      (hits.length > this.shown ? " (showing the first " + this.shown + ")" : "");
    document.getElementById("traj-more").style.display = hits.length > this.shown ? "" : "none";
  };

  function facts(obj) {
    return Object.entries(obj || {}).map(([k, v]) => k + " " + (typeof v === "number" ? +v.toPrecision(4) : v))
      .join(" · ");
  }

  Browser.prototype.parts = function (parts) {
    return (parts || []).map((part) => {
      if (part.image !== undefined) {
        const url = this.images[part.image];
        if (typeof url === "string" && url.startsWith("data:image/")) return el("img", { src: url, alt: "task image" });
        return el("p", { class: "note" }, "[missing image]");
      }
      const out = [];
      if (part.note) out.push(el("p", { class: "note" }, part.note));
      if (part.text) out.push(el("pre", {}, part.text));
      return out;
    }).flat();
  };

  Browser.prototype.detail = function (t) {
    const box = document.getElementById("traj-detail");
    const head = el("div", { class: "detail-head" }, [
      el("h3", {}, t.id),
      el("div", {}, [t.run + (t.model !== t.run ? " · " + t.model : "") + " · " + t.bootcamp + "/" + t.group + " · ",
        el("span", { class: t.passed ? "pass" : "fail" }, t.status + ", score " + t.score),
        " · " + t.turns + " assistant turns · " + t.tool_calls + " tool calls · from " + t.where]),
      t.error ? el("p", { class: "error-text" }, "error " + (t.error.type || "") + ": " + (t.error.message || "")) : null,
    ]);
    const extracted = t.extracted || {};
    const answer = el("div", { class: "answer" }, [
      el("div", {}, [el("span", { class: "kind" }, "verifier's extracted answer"),
        el("pre", {}, extracted.value === null || extracted.value === undefined ? "(none)" : extracted.value),
        el("p", { class: "note" }, extracted.note || "")]),
      el("div", {}, [el("span", { class: "kind" }, "ground truth"), el("pre", {}, t.ground_truth)]),
    ]);
    const steps = t.steps.map((s) => {
      const kids = [el("span", { class: "kind" }, s.kind + (s.name ? " · " + s.name : "")),
        el("span", { class: "facts" }, facts(s.facts))];
      if (s.reasoning) kids.push(el("pre", { class: "reasoning" }, s.reasoning));
      kids.push.apply(kids, this.parts(s.parts));
      for (const call of s.tool_calls || []) {
        kids.push(el("div", { class: "call" }, [el("span", { class: "kind" }, "tool call · " + call.name),
          el("span", { class: "facts" }, call.id), el("pre", {}, call.arguments)]));
      }
      if (s.error) kids.push(el("p", { class: "error-text" }, "error " + s.error.type + ": " + s.error.message));
      return el("div", { class: "step " + s.kind + (s.error ? " has-error" : "") }, kids);
    });
    const tail = el("div", { class: "answer" }, [
      el("div", {}, [el("span", { class: "kind" }, "reward"), el("pre", {}, t.reward)]),
      el("div", {}, [el("span", { class: "kind" }, "usage · timing"), el("pre", {}, t.usage + "\n" + t.timing)]),
    ]);
    box.replaceChildren(head, answer, ...steps, tail);
  };

  window.addEventListener("DOMContentLoaded", function () {
    const browserData = readJson("bc-browser-data");
    window.bcBrowser = new Browser(browserData);
    renderCharts(readJson("bc-chart-data"));
  });
})();
