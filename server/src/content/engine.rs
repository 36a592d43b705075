//! The JavaScript engine that renders `/`: the build's render bundle
//! (`web/dist/.render/render.js`, the same one the build's pre-render runs in Node) run by QuickJS
//! on a thread of its own.

use std::sync::mpsc;
use std::time::Instant;

use anyhow::{anyhow, Context as _};
use rquickjs::{CatchResultExt, Context, Function, Runtime};
use tokio::sync::oneshot;

/// What the build writes for the server alone (`web/dist/.render/`): the render bundle, the page
/// templates, the build's head and the default document's render. Embedded apart from the site,
/// never served.
use crate::embedded::RENDER as RenderFiles;

/// The largest heap the render bundle may use; a render of `/` takes a few megabytes.
const MEMORY_LIMIT: usize = 64 << 20;

/// The host's part of the JavaScript environment: `console`, whose messages the host logs after
/// each render. The bundle needs nothing else (see `web/vite.render.config.ts`).
const PRELUDE: &str = r#"
globalThis.__messages = [];
globalThis.console = Object.fromEntries(['log', 'info', 'warn', 'error', 'debug'].map((level) =>
  [level, (...args) => { globalThis.__messages.push(level + ': ' + args.map(String).join(' ')); }]));
"#;

/// A file the build wrote into `dist/.render/`.
pub fn build_file(name: &str) -> Option<String> {
    RenderFiles
        .get(name)
        .map(|file| String::from_utf8_lossy(file).into_owned())
}

struct Job {
    /// The render bundle's function: `renderLanding` or `renderCaseStudy`.
    function: &'static str,
    /// Its arguments, each a JSON text or `null`.
    args: Vec<Option<String>>,
    reply: oneshot::Sender<anyhow::Result<String>>,
}

/// The JavaScript engine with the render bundle loaded, on a thread of its own (a QuickJS
/// runtime stays on the thread that made it); renders one document at a time.
pub struct Engine {
    jobs: mpsc::Sender<Job>,
}

impl Engine {
    /// Starts the engine's thread and loads the bundle; fails when the bundle does not load.
    pub fn start() -> anyhow::Result<Self> {
        let bundle = RenderFiles
            .get("render.js")
            .context(
                "the render bundle (web/dist/.render/render.js) was not built into this binary",
            )?
            .to_vec();
        let (jobs, queue) = mpsc::channel::<Job>();
        let (loaded, load_result) = mpsc::sync_channel::<anyhow::Result<()>>(1);
        std::thread::Builder::new()
            .name("render".to_owned())
            .spawn(move || {
                let started = Instant::now();
                let engine = match load(bundle) {
                    Ok(engine) => engine,
                    Err(error) => {
                        let _ = loaded.send(Err(error));
                        return;
                    }
                };
                tracing::info!(
                    ms = started.elapsed().as_secs_f64() * 1000.0,
                    "render engine loaded"
                );
                let _ = loaded.send(Ok(()));
                let (_runtime, context) = engine;
                for job in queue {
                    let started = Instant::now();
                    let result = render_in(&context, job.function, &job.args);
                    if let Ok(html) = &result {
                        tracing::info!(
                            ms = started.elapsed().as_secs_f64() * 1000.0,
                            bytes = html.len(),
                            function = job.function,
                            "rendered a page"
                        );
                    }
                    let _ = job.reply.send(result);
                }
            })
            .context("Failed to start the render thread")?;
        load_result
            .recv()
            .context("the render thread ended while loading")??;
        Ok(Self { jobs })
    }

    /// The HTML of `/` for a document given as JSON: the render bundle's `renderLanding`.
    pub async fn render(&self, document_json: String) -> anyhow::Result<String> {
        self.render_with(document_json, None).await
    }

    /// The HTML of a language's page: `renderLanding(documentJson, localeJson)`; without a
    /// locale, `renderLanding(documentJson, null)` as before languages existed.
    pub async fn render_with(
        &self,
        document_json: String,
        locale_json: Option<String>,
    ) -> anyhow::Result<String> {
        self.call("renderLanding", vec![Some(document_json), locale_json])
            .await
    }

    /// The render bundle's `function` called with `args` (JSON texts, `None` for `null`): the
    /// HTML it returns.
    pub async fn call(
        &self,
        function: &'static str,
        args: Vec<Option<String>>,
    ) -> anyhow::Result<String> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job {
                function,
                args,
                reply,
            })
            .map_err(|_| anyhow!("the render thread has stopped"))?;
        answer
            .await
            .map_err(|_| anyhow!("the render thread has stopped"))?
    }
}

fn load(bundle: Vec<u8>) -> anyhow::Result<(Runtime, Context)> {
    let runtime = Runtime::new().context("Failed to start QuickJS")?;
    runtime.set_memory_limit(MEMORY_LIMIT);
    let context = Context::full(&runtime).context("Failed to make a QuickJS context")?;
    context.with(|ctx| -> anyhow::Result<()> {
        ctx.eval::<(), _>(PRELUDE)
            .catch(&ctx)
            .map_err(|e| anyhow!("the render prelude failed: {e}"))?;
        ctx.eval::<(), _>(bundle)
            .catch(&ctx)
            .map_err(|e| anyhow!("the render bundle failed to load: {e}"))?;
        for function in ["renderLanding", "renderCaseStudy"] {
            let _: Function = ctx
                .globals()
                .get(function)
                .catch(&ctx)
                .map_err(|e| anyhow!("the render bundle sets no {function}: {e}"))?;
        }
        Ok(())
    })?;
    Ok((runtime, context))
}

fn render_in(context: &Context, function: &str, args: &[Option<String>]) -> anyhow::Result<String> {
    context.with(|ctx| {
        let render: Function = ctx
            .globals()
            .get(function)
            .catch(&ctx)
            .map_err(|e| anyhow!("{function} is gone: {e}"))?;
        let mut call = rquickjs::function::Args::new(ctx.clone(), args.len());
        for arg in args {
            match arg {
                Some(json) => call.push_arg(json.as_str()),
                None => call.push_arg(rquickjs::Null),
            }
            .map_err(|e| anyhow!("the arguments of {function}: {e}"))?;
        }
        let result = render
            .call_arg::<String>(call)
            .catch(&ctx)
            .map_err(|e| anyhow!("rendering with {function} failed: {e}"));
        let messages: String = ctx
            .eval("globalThis.__messages.splice(0).join('\\n')")
            .unwrap_or_default();
        if !messages.is_empty() {
            tracing::warn!(%messages, "the render bundle wrote to the console");
        }
        result
    })
}

#[cfg(test)]
mod tests {
    use super::{build_file, Engine};

    #[tokio::test]
    async fn the_servers_render_of_the_default_document_equals_the_builds_byte_for_byte() {
        let expected =
            build_file("default.html").expect("the build's render of the default document");
        let engine = Engine::start().expect("the render bundle loads");
        let json = serde_json::to_string(crate::content::document::default_document()).unwrap();
        // Its cards link to the placeholder's case studies, as the build's do.
        let links: std::collections::BTreeMap<&str, String> =
            crate::content::case_study::default_case_studies()
                .iter()
                .map(|s| (s.project.as_str(), format!("/projects/{}/", s.slug)))
                .collect();
        let args = vec![
            Some(json.clone()),
            None,
            Some(serde_json::to_string(&links).unwrap()),
        ];
        let rendered = engine
            .call("renderLanding", args.clone())
            .await
            .expect("the default document renders");
        assert!(
            rendered == expected,
            "QuickJS and Node drew different HTML for the default document"
        );
        // Again: nothing in the engine carries over from one render to the next.
        assert!(engine.call("renderLanding", args).await.unwrap() == expected);
        // Without links, the cards are as they were.
        let plain = engine.render(json).await.unwrap();
        assert!(!plain.contains("/projects/") && expected.contains("/projects/portfolio/"));
    }

    #[tokio::test]
    async fn a_document_that_is_not_json_is_an_error_not_a_panic() {
        let engine = Engine::start().unwrap();
        let error = engine.render("{".to_owned()).await.unwrap_err();
        assert!(
            error
                .to_string()
                .contains("rendering with renderLanding failed"),
            "{error}"
        );
        // The engine still renders afterwards.
        let json = serde_json::to_string(crate::content::document::default_document()).unwrap();
        assert!(engine.render(json).await.is_ok());
    }
}
