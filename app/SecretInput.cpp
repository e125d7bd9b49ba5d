/// @brief Reading a secret: environment, file, or the terminal with echo off (termios), restored even on error.
#include "SecretInput.h"

#include "CommandLine.h"

#include <termios.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

namespace lucent::app {

namespace {

/// Turns the terminal's echo off for its lifetime.
class EchoOff {
public:
    EchoOff() : m_ok(::tcgetattr(STDIN_FILENO, &m_saved) == 0) {
        if (!m_ok) return;
        termios quiet = m_saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
    ~EchoOff() {
        if (m_ok) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &m_saved);
    }
    EchoOff(const EchoOff&) = delete;
    EchoOff& operator=(const EchoOff&) = delete;

private:
    termios m_saved{};
    bool m_ok;
};

}  // namespace

std::string secretFromEnvironmentOrTerminal(const char* variable, const std::string& prompt) {
    if (const char* value = std::getenv(variable)) return value;
    if (!::isatty(STDIN_FILENO) || !::isatty(STDERR_FILENO))
        throw UsageError(std::string("no terminal to ask for it on: set ") + variable);
    std::cerr << prompt << std::flush;
    std::string line;
    {
        EchoOff quiet;
        std::getline(std::cin, line);
    }
    std::cerr << "\n";
    return line;
}

std::string secretFromFile(const std::string& path, const std::string& option) {
    try {
        return pacs::secretFromFile(path, option);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

}  // namespace lucent::app
