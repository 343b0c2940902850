//! Runner overhead per tool call: the whole path (argument split, view defaults, validation,
//! parse, handler stub, output validation, view, validation of the view, serialization) against
//! a bare serde round trip of the same payload (parse the arguments, serialize the full answer).

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use stitchgen_generated_tests::people::{self, count, create, delete, get, list, types, update};
use stitchgen_runtime::{AppError, Ctx, Headed, Presentation, Surface, ViewCall};

/// A handler stub: answers are ready, so only the runner's own work is measured.
struct Stub {
    page: list::Output,
    one: types::Person,
}

fn person(i: usize) -> types::Person {
    types::Person {
        id: format!("p{i:04}"),
        name: format!("Person {i}").parse().unwrap(),
        email: format!("person{i}@example.com"),
        phone: Some(format!("+1 555 {i:04}")),
        address: Some(types::Address { street: Some(format!("{i} Main St")), city: "Lisbon".into() }),
        team: "core".into(),
    }
}

fn not_measured<T>() -> Result<T, AppError> {
    Err(AppError::new(stitchgen_runtime::ErrorCode::NotImplemented, "not measured"))
}

impl people::Handler for Stub {
    async fn list(&self, _: &Ctx, _: list::Input) -> Result<Headed<list::Output, list::Headers>, AppError> {
        let headers = list::Headers { x_rate_limit_limit: "600".into(), x_rate_limit_remaining: "599".into() };
        Ok(Headed::new(self.page.clone(), headers))
    }
    async fn get(&self, _: &Ctx, _: get::Params) -> Result<get::Output, AppError> {
        Ok(self.one.clone())
    }
    async fn teams(&self, _: &Ctx) -> Result<Vec<String>, AppError> {
        not_measured()
    }
    async fn create(&self, _: &Ctx, _: create::Input) -> Result<Headed<create::Output, create::Headers>, AppError> {
        not_measured()
    }
    async fn update(&self, _: &Ctx, _: update::Params, _: update::Input) -> Result<update::Output, AppError> {
        not_measured()
    }
    async fn delete(&self, _: &Ctx, _: delete::Params) -> Result<(), AppError> {
        not_measured()
    }
    async fn count(&self, _: &Ctx, _: count::Input) -> Result<count::Output, AppError> {
        not_measured()
    }
}

impl people::Views for Stub {
    fn list(full: &list::Output, _: &ViewCall<list::Input>) -> list::ToolAnswer {
        let people = full.people.iter().map(|p| types::Card {
            id: p.id.clone(),
            name: p.name.to_string(),
            team: p.team.clone(),
        });
        types::ListToolAnswer { people: people.collect(), total: full.total.into() }
    }
}

impl people::Presenters for Stub {
    fn count_mcp(_: &count::Output) -> Presentation {
        Presentation::default()
    }
    fn count_agent(_: &count::Output) -> Presentation {
        Presentation::default()
    }
}

/// The bare serde round trip of one case.
type Bare = Box<dyn Fn(&Value) -> String>;

fn bench(c: &mut Criterion) {
    let page = list::Output { people: (1..=20).map(person).collect(), total: 300 };
    let stub = Stub { page: page.clone(), one: person(1) };
    let service = people::service(stub);
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let ctx = Ctx::anonymous();
    let cases: [(&str, Value, Bare); 2] = [
        (
            "get_person",
            json!({"id": "p0001"}),
            Box::new(|args: &Value| {
                let _: get::Params = serde_json::from_value(args.clone()).unwrap();
                serde_json::to_string(&person(1)).unwrap()
            }),
        ),
        (
            "list_people",
            json!({"team": "core"}),
            Box::new(move |args: &Value| {
                let _: list::Input = serde_json::from_value(args.clone()).unwrap();
                serde_json::to_string(&page).unwrap()
            }),
        ),
    ];
    for (tool, args, bare) in &cases {
        let mut group = c.benchmark_group(*tool);
        group.bench_function("runner (MCP, view applied)", |b| {
            b.iter(|| {
                let outcome = rt.block_on(service.call_tool(Surface::Mcp, tool, args.clone(), &ctx)).unwrap();
                serde_json::to_string(&outcome.value).unwrap()
            })
        });
        group.bench_function("bare serde round trip", |b| b.iter(|| bare(args)));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
