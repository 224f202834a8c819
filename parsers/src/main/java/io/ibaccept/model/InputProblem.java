package io.ibaccept.model;

/**
 * An input that could not be used: missing file, a command that failed/timed out/was not installed, a host that was
 * unreachable, a command that printed nothing, or text the parser rejected. file/line point into the dump (line 0: the file as a whole).
 */
public record InputProblem(Kind kind, String host, String command, String file, int line, String message) {
    public enum Kind { MISSING, TOOL_MISSING, COMMAND_FAILED, TIMEOUT, UNREACHABLE, EMPTY, PARSE_ERROR }

    public String where() {
        return line > 0 ? file + ":" + line : file;
    }
}
