/// @brief The pace of a live run, declared once: steps per second from kMinSpeed to kMaxSpeed, or
/// unpaced (kUnpaced: as fast as the engine goes), the speed each method starts at in the viewer,
/// and its spelling on a command line ("20", "max").
#pragma once

#include "lucent/core/seg/Methods.h"

#include <string>
#include <string_view>

namespace lucent {

/// Steps per second a paced run may take.
inline constexpr int kMinSpeed = 1;
inline constexpr int kMaxSpeed = 240;
/// No pacing: the engine steps as fast as it goes (the "max" of --speed and of the panel).
inline constexpr int kUnpaced = 0;

/// The speed a run starts at in the window, chosen so that a person can follow the method: the
/// snake draws every step (a typical convergence of 30-60 steps takes 1.5-3 s), region growing's
/// front and the fuzzy connectedness sweep advance visibly, FCM's iterations can be counted.
int watchableSpeed(Method method);

/// "max" -> kUnpaced, "1".."240" -> that speed; throws std::invalid_argument naming the accepted
/// values for anything else.
int parseSpeed(std::string_view text);
/// kUnpaced -> "max", otherwise the number.
std::string speedText(int speed);
/// The next speed up or down the ladder 1, 2, 5, 10, 20, 30, 60, 120, 240, max (the HUD's - and +
/// buttons); max is the top, 1 the bottom.
int fasterSpeed(int speed);
int slowerSpeed(int speed);

}  // namespace lucent
