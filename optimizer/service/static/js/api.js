// The board's only way to the referee: the public HTTP API (docs/formats.md "HTTP service").
// Nothing here judges a move; it sends requests and hands back the service's JSON.

export class ApiError extends Error {
  constructor(status, detail, path) {
    super(detail);
    this.status = status;
    this.path = path;
  }
}

export class Api {
  constructor(base = "", token = null) {
    this.base = base;
    this.token = token;
  }

  headers(json = true) {
    const h = {};
    if (json) h["Content-Type"] = "application/json";
    if (this.token) h["Authorization"] = `Bearer ${this.token}`;
    return h;
  }

  async get(path, signal) {
    const answer = await fetch(this.base + path, { headers: this.headers(false), signal });
    return this.read(answer);
  }

  async post(path, body, signal) {
    try {
      return await this.read(await this.send(path, body, signal));
    } catch (error) {
      // A scenario id the server no longer holds (restarted, or evicted from its cache):
      // register the scenario again and ask once more.
      if (!(error instanceof ApiError) || error.status !== 404 || !body || !body.scenario_id
          || !this.reRegister) throw error;
      const retried = { ...body, scenario_id: await this.reRegister() };
      return this.read(await this.send(path, retried, signal));
    }
  }

  send(path, body, signal) {
    return fetch(this.base + path, {
      method: "POST", headers: this.headers(), body: JSON.stringify(body), signal,
    });
  }

  // The raw answer of a POST, for streams (Server-Sent Events).
  async stream(path, body, signal) {
    const answer = await fetch(this.base + path, {
      method: "POST", headers: this.headers(), body: JSON.stringify(body), signal,
    });
    if (!answer.ok) await this.read(answer);
    return answer;
  }

  async read(answer) {
    const text = await answer.text();
    let data = null;
    try { data = text ? parseJson(text) : null; } catch { data = text; }
    if (!answer.ok) {
      const detail = data && data.detail ? data.detail : `${answer.status} ${answer.statusText}`;
      throw new ApiError(answer.status, detail, data && data.path);
    }
    return data;
  }
}

// The service writes a measurement that is not finite as null; a server before that wrote
// `Infinity`, which JSON.parse refuses: read it as a number too large for a double.
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    const fixed = text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (token) =>
      token[0] === '"' ? token : token === "NaN" ? "null" : token.replace("Infinity", "1e999"));
    return JSON.parse(fixed);
  }
}

// One request at a time per purpose: each new request carries the next sequence number and
// aborts the one before, and an answer is used only while it is still the latest.
export class Latest {
  constructor(api, timing) {
    this.api = api;
    this.timing = timing; // the name of the Performance API measure, or null
    this.seq = 0;
    this.controller = null;
  }

  abort() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  // Resolves with {seq, data} for the latest request; null when it was superseded.
  async post(path, body) {
    this.abort();
    const seq = ++this.seq;
    const controller = new AbortController();
    this.controller = controller;
    const start = performance.now();
    try {
      const data = await this.api.post(path, body, controller.signal);
      if (seq !== this.seq) return null;
      if (this.timing) {
        performance.measure(this.timing, { start, end: performance.now() });
      }
      return { seq, data };
    } catch (error) {
      if (error.name === "AbortError" || seq !== this.seq) return null;
      throw error;
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }
}

// Server-Sent Events from a fetch body: calls onEvent(name, data) for each event.
export async function readEvents(answer, onEvent) {
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(name, parseJson(data.join("\n")));
    }
  }
}
