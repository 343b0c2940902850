//! The meeting rooms' handlers: four rooms, and today's bookings in memory.

use std::sync::Mutex;
use std::time::Duration;

use stitchgen_runtime::{AppError, Ctx, ErrorCode};

use crate::rooms::{self, availability, book, list, types};

/// How long one room's calendar takes to read: it stands for a call to a calendar service, and
/// makes `availability` the example's long operation.
const CALENDAR_READ: Duration = Duration::from_millis(150);

/// The rooms, and who booked which hour of today.
pub(crate) struct Rooms {
    rooms: Vec<types::Room>,
    bookings: Mutex<Vec<types::Booking>>,
}

impl Rooms {
    /// The four rooms of the office, nothing booked.
    pub(crate) fn new() -> Self {
        let room = |id: &str, name: &str, seats: u64| types::Room { id: id.into(), name: name.into(), seats };
        Rooms {
            rooms: vec![
                room("r1", "Babbage", 4),
                room("r2", "Curie", 8),
                room("r3", "Noether", 12),
                room("r4", "Turing", 30),
            ],
            bookings: Mutex::new(Vec::new()),
        }
    }
}

impl rooms::Handler for Rooms {
    async fn list(&self, _ctx: &Ctx, input: list::Input) -> Result<list::Output, AppError> {
        let seats = input.seats.unwrap_or(1);
        Ok(types::ListOutput { rooms: self.rooms.iter().filter(|r| r.seats >= seats).cloned().collect() })
    }

    async fn book(&self, _ctx: &Ctx, params: book::Params, input: book::Input) -> Result<book::Output, AppError> {
        if !self.rooms.iter().any(|r| r.id == params.id) {
            return Err(AppError::new(ErrorCode::NotFound, format!("no room with id `{}`", params.id)));
        }
        let mut bookings = self.bookings.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if bookings.iter().any(|b| b.room == params.id && b.hour == input.hour) {
            return Err(AppError::new(
                ErrorCode::Conflict,
                format!("room `{}` is booked at {}:00", params.id, input.hour),
            ));
        }
        let booking = types::Booking { room: params.id, person: input.person, hour: input.hour };
        bookings.push(booking.clone());
        Ok(booking)
    }

    async fn availability(&self, ctx: &Ctx) -> Result<availability::Output, AppError> {
        let total = self.rooms.len() as f64;
        let mut rooms = Vec::with_capacity(self.rooms.len());
        for (read, room) in self.rooms.iter().enumerate() {
            tokio::time::sleep(CALENDAR_READ).await;
            let booked = {
                let bookings = self.bookings.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                bookings.iter().filter(|b| b.room == room.id).count() as u64
            };
            rooms.push(types::Availability { room: room.id.clone(), free: 24 - booked });
            ctx.progress((read + 1) as f64, Some(total), &format!("read the calendar of {}", room.name)).await;
        }
        Ok(types::AvailabilityOutput { rooms })
    }
}
