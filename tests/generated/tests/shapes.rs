//! One type per shape (`fixtures/valid/shapes_shared.stitch.yaml`): every name typify gives an
//! inline schema still builds, matches and converts, and names of one shape are one type.

use serde_json::json;
use stitchgen_generated_tests::shapes::{self, types};
use stitchgen_runtime::{AppError, Call, Ctx};

struct Moves;

impl shapes::Handler for Moves {
    async fn r#move(&self, _ctx: &Ctx, input: shapes::r#move::Input) -> Result<shapes::r#move::Output, AppError> {
        // Input and output are one shape, so one type: the input is the answer.
        Ok(input)
    }

    async fn jump(&self, _ctx: &Ctx, input: shapes::jump::Input) -> Result<(), AppError> {
        // Built, matched and parsed through the names of `move`, read as `jump`'s.
        let to = types::MoveInputTo { x: input.to.x, z: input.to.z };
        let again: types::JumpInput = types::MoveInput { direction: input.direction, to };
        match again.direction {
            types::MoveInputDirection::Up => {
                assert_eq!("up".parse::<types::TurnInputDirection>().ok(), Some(again.direction))
            }
            types::JumpInputDirection::Down => assert_eq!(again.direction.to_string(), "down"),
        }
        Ok(())
    }

    async fn turn(&self, _ctx: &Ctx, input: shapes::turn::Input) -> Result<(), AppError> {
        // `turn`'s point has a string `x`: a shape of its own, with a type of its own.
        let types::TurnInputTo { x, z } = input.to;
        assert_eq!((x.as_str(), z.get()), ("north", 1));
        Ok(())
    }
}

async fn call(action: &str, input: serde_json::Value) -> Result<serde_json::Value, AppError> {
    let svc = shapes::service(Moves);
    let op = svc.operations().iter().position(|o| o.action == action).unwrap();
    let input = input.as_object().cloned().unwrap_or_default();
    svc.call_http(op, Default::default(), input, Call::default(), &Ctx::anonymous()).await.map(|a| a.value)
}

#[tokio::test]
async fn every_name_of_a_shared_shape_serves() {
    let point = json!({"direction": "up", "to": {"x": 1, "z": 2}});
    assert_eq!(call("move", point.clone()).await.unwrap(), point);
    call("jump", point).await.unwrap();
    call("jump", json!({"direction": "down", "to": {"x": 3, "z": 4}})).await.unwrap();
    call("turn", json!({"direction": "up", "to": {"x": "north", "z": 1}})).await.unwrap();
}

#[test]
fn names_of_one_shape_are_one_type() {
    let moves: Vec<types::MoveOutput> = vec![
        types::JumpInput {
            direction: types::JumpInputDirection::Up,
            to: types::JumpInputTo { x: 0.into(), z: 0.into() },
        },
        types::MoveInput {
            direction: types::MoveOutputDirection::Down,
            to: types::MoveOutputTo { x: 1.into(), z: 1.into() },
        },
    ];
    assert_eq!(moves.len(), 2);
}
