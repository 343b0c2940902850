//! The one catalog of diagnostic codes: stable ids, severities and one-line summaries.

use super::Severity;

macro_rules! catalog {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $sev:ident, $summary:literal;)*) => {
        /// A stable diagnostic code. Codes are never reused or renumbered.
        ///
        /// ```
        /// let code = stitchgen::Code::ALL.iter().find(|c| c.id() == "E0200").unwrap();
        /// assert_eq!(code.severity(), stitchgen::Severity::Error);
        /// println!("{}: {}", code.id(), code.summary());
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $($(#[$doc])* $name,)*
        }

        impl Code {
            /// Every code, in catalog order.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The stable id, such as `E0511`.
            pub fn id(self) -> &'static str {
                match self { $(Code::$name => $id,)* }
            }

            /// Error or warning.
            pub fn severity(self) -> Severity {
                match self { $(Code::$name => Severity::$sev,)* }
            }

            /// One line describing what the code means.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$name => $summary,)* }
            }

            /// The code with the given id, if the catalog has one.
            pub fn from_id(id: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.id().eq_ignore_ascii_case(id))
            }
        }
    };
}

catalog! {
    // E00xx: reading the file and the shape of the YAML.
    /// The file is not well-formed YAML.
    YamlSyntax = "E0001", Error, "the file is not well-formed YAML";
    /// The file is larger than a contract may be.
    FileTooLarge = "E0002", Error, "the file is larger than a contract may be";
    /// The file is not valid UTF-8.
    InvalidUtf8 = "E0003", Error, "the file is not valid UTF-8";
    /// The document exceeds a parser limit (alias expansion, node count, nesting).
    YamlLimit = "E0004", Error, "the document exceeds a parser limit";
    /// A YAML feature the DSL does not accept (several documents, non-string keys, tags).
    YamlUnsupported = "E0005", Error, "a YAML feature contracts do not use";
    /// `stitch:` is missing or names a version this stitchgen does not know.
    UnknownVersion = "E0010", Error, "missing or unknown `stitch:` version";
    /// A mapping key appears twice.
    DuplicateKey = "E0011", Error, "a mapping key appears twice";
    /// A key the DSL does not define at that place.
    UnknownKey = "E0012", Error, "a key the DSL does not define here";
    /// A value of the wrong kind (a list where a string belongs, say).
    WrongKind = "E0013", Error, "a value of the wrong kind";
    /// A required key is missing.
    MissingKey = "E0014", Error, "a required key is missing";
    /// A value outside the allowed set (an unknown method or surface, say).
    InvalidValue = "E0015", Error, "a value outside the allowed set";
    /// A name or description that must not be blank is blank.
    BlankValue = "E0016", Error, "a value that must not be blank is blank";

    // E01xx: contract and operation identity.
    /// Two contracts given together declare the same service.
    DuplicateService = "E0100", Error, "two contracts given together declare the same service";
    /// Two operations of one service share an action.
    DuplicateAction = "E0102", Error, "two operations of one service share an action";
    /// An error code in `errors` that is neither in the registry nor an application code.
    InvalidErrorCode = "E0103", Error, "an `errors` entry that is not a valid error code";

    // E02xx: the HTTP shape.
    /// A path or basePath that is not a well-formed route.
    InvalidPath = "E0200", Error, "a path that is not a well-formed route";
    /// A path parameter whose name is not an identifier.
    InvalidPathParam = "E0201", Error, "a path parameter name that is not an identifier";
    /// A path parameter named twice in one route.
    DuplicatePathParam = "E0202", Error, "a path parameter named twice in one route";
    /// A wildcard that is unnamed, not last, or not alone in its segment.
    InvalidWildcard = "E0203", Error, "a wildcard that is unnamed, not last, or not alone";
    /// A path parameter the `params` schema does not declare as a required property.
    ParamNotDeclared = "E0204", Error, "a path parameter missing from `params`";
    /// A `params` property that is not a path parameter.
    ParamNotInPath = "E0205", Error, "a `params` property that is not in the path";
    /// Two routes with the same method and shape.
    RouteConflict = "E0206", Error, "two routes with the same method and shape";
    /// GET or DELETE input that cannot be encoded as a query string.
    InputNotQueryEncodable = "E0207", Error, "GET/DELETE or form input that text fields cannot carry";
    /// A key declared both by `params` and by `input`.
    ParamsInputConflict = "E0208", Error, "a key declared by both `params` and `input`";
    /// A `params` schema that is not an object of scalar properties.
    InvalidParamsSchema = "E0209", Error, "`params` is not an object of scalar properties";
    /// A `paramsIn` entry the request cannot carry: undeclared, a path parameter, a name its
    /// location does not take, a value text does not carry, or a name already taken.
    InvalidParamIn = "E0210", Error, "a `paramsIn` entry the request cannot carry";

    // E03xx: HTTP-only endpoint kinds and exposure.
    /// An HTTP-only kind exposed on a tool surface.
    HttpOnlyExposed = "E0300", Error, "an HTTP-only endpoint exposed on a tool surface";
    /// The `tool` group on an endpoint that can never be a tool.
    ToolGroupNotAllowed = "E0301", Error, "a `tool` group on an endpoint that is never a tool";
    /// `rawResponse` broken: output given, or contentType without rawResponse.
    InvalidRawResponse = "E0302", Error, "a raw response declared inconsistently";
    /// HEAD without `rawResponse: true`.
    HeadWithoutRawResponse = "E0303", Error, "a HEAD endpoint without `rawResponse: true`";
    /// `rawBody` on a method without a body, without input, or with multipart.
    InvalidRawBody = "E0304", Error, "`rawBody` where no JSON body can be read";
    /// A multipart upload declared inconsistently.
    InvalidMultipart = "E0305", Error, "a multipart upload declared inconsistently";
    /// `responseMeta` with a status that is not 2xx, or 204/205 with output.
    InvalidResponseMeta = "E0306", Error, "`responseMeta` with an unusable status";
    /// A stream declared inconsistently.
    InvalidStream = "E0307", Error, "a stream declared inconsistently";
    /// Two HTTP-only kinds that exclude each other on one endpoint.
    ConflictingKinds = "E0308", Error, "two HTTP-only kinds that exclude each other";
    /// `inputContentType` where no JSON body is read, or a media type that is not JSON.
    InvalidInputContentType = "E0309", Error, "an `inputContentType` that no JSON or form body can have";
    /// An `expose`, `transports` or `present` list that is empty or repeats an entry.
    InvalidExposure = "E0310", Error, "a surface list that is empty or repeats an entry";
    /// The `http` group: a status that is not 2xx, 204/205 with output, a bad or repeated header
    /// name, or beside a kind that answers otherwise.
    InvalidHttpGroup = "E0311", Error, "an `http` group with an unusable status or header";
    /// A `security` requirement naming a scheme `securitySchemes` does not declare.
    UnknownSecurityScheme = "E0312", Error, "a security requirement naming an undeclared scheme";
    /// One security scheme name declared differently by two contracts given together.
    SecuritySchemeConflict = "E0313", Error, "two contracts declare one security scheme differently";
    /// A `limits` entry that is 0, or that bounds what the endpoint never reads.
    InvalidLimit = "E0314", Error, "a byte limit of what the endpoint never reads, or of 0";
    /// `inputOptional` where no body is read.
    InvalidOptionalInput = "E0315", Error, "an optional body where no body is read";

    // E05xx: the `tool` group, tool names and tool views.
    /// A tool option written at the top level of an endpoint, where it used to live.
    MovedToolKey = "E0500", Error, "a tool option outside the `tool` group";
    /// The `tool` group on an endpoint with no tool transport.
    ToolGroupWithoutTool = "E0502", Error, "a `tool` group on an endpoint with no tool transport";
    /// A view with none of `defaults`, `output`, `project`.
    EmptyView = "E0510", Error, "a tool view that declares nothing";
    /// A view default the input schema rejects.
    InvalidViewDefault = "E0511", Error, "a tool view default the input schema rejects";
    /// A view default for a key the input does not declare.
    UnknownViewDefault = "E0512", Error, "a tool view default for a key the input lacks";
    /// A view default for a path parameter.
    ViewDefaultForParam = "E0513", Error, "a tool view default for a path parameter";
    /// View defaults where the input is not an object schema.
    ViewDefaultsWithoutObjectInput = "E0514", Error, "tool view defaults without an object input";
    /// A view on an endpoint without a full `output`.
    ViewWithoutOutput = "E0515", Error, "a tool view on an endpoint without `output`";
    /// A slice whose schema does not accept every full result.
    SliceNotSatisfiable = "E0517", Error, "a tool view slice the full output cannot satisfy";
    /// Two `tool.mcp.inputRequired` entries of one tool with the same key.
    DuplicateInputKey = "E0520", Error, "two `inputRequired` entries of one tool share a key";
    /// A `tool.mcp.inputRequired` schema that MCP elicitation does not allow.
    InvalidElicitationSchema = "E0521", Error, "an `inputRequired` form MCP elicitation does not allow";
    /// A `tool.mcp` group on an endpoint that is not served on MCP.
    McpGroupWithoutMcp = "E0522", Error, "a `tool.mcp` group on an endpoint not served on MCP";
    /// A tool name outside `^[A-Za-z0-9_-]{1,64}$`.
    InvalidToolName = "E0550", Error, "a tool name outside `^[A-Za-z0-9_-]{1,64}$`";
    /// A tool name that cannot be derived (the service has no letter or digit).
    UnderivableToolName = "E0551", Error, "a tool name that cannot be derived";
    /// Two tools with one name on one transport.
    DuplicateToolName = "E0552", Error, "two tools with one name on one transport";
    /// A tool that a client profile's rules refuse, after its passes (`--profile`).
    ProfileRefused = "E0560", Error, "a tool a client profile cannot express";

    // E06xx: schemas.
    /// A `$ref` to a type the contract does not declare.
    UnresolvedRef = "E0600", Error, "a `$ref` to a type the contract does not declare";
    /// A `$ref` that leaves the contract.
    ExternalRef = "E0601", Error, "a `$ref` that leaves the contract";
    /// A schema keyword stitchgen does not support end to end.
    UnsupportedKeyword = "E0602", Error, "a schema keyword that is not supported";
    /// A keyword whose value is malformed.
    InvalidKeywordValue = "E0603", Error, "a schema keyword with a malformed value";
    /// A tool input that is not an object schema.
    ToolInputNotObject = "E0604", Error, "a tool input that is not an object schema";
    // E0605 (a tool answer that is not an object) is retired: where a target needs objects,
    // such an answer is presented wrapped (`{"items": [...]}`, `{"value": …}`).
    /// A schema nested deeper than the limit.
    SchemaTooDeep = "E0606", Error, "a schema nested deeper than the limit";
    /// A `required` entry with no matching property.
    RequiredNotDeclared = "E0607", Error, "a `required` entry with no matching property";
    /// A `oneOf` with two branches that are the same schema, so neither can ever be taken.
    AmbiguousOneOf = "E0608", Error, "a `oneOf` with a branch no value can take";
    /// A `default`, `const`, `enum` or `examples` value its own schema rejects.
    InvalidSchemaValue = "E0609", Error, "a schema value its own schema rejects";
    /// A shared type that refers to itself on the same value, through `$ref` and compositions.
    SelfReferentialType = "E0610", Error, "a type defined in terms of itself on the same value";
    /// A schema the Rust type generator (typify) fails on: found while generating, never by
    /// `check`; each such shape is a gap to close in the schema translation.
    UntranslatableSchema = "E0611", Error, "a schema the Rust type generator cannot translate";

    // E07xx: runtime tools.
    /// A runtime tool with an empty transport list.
    NoTransports = "E0700", Error, "a runtime tool with no transport";
    /// `present` on a runtime tool without `output`.
    PresentWithoutOutput = "E0701", Error, "a presenter on a runtime tool without `output`";
    /// A presenter for a transport the tool is not mounted on.
    PresenterNotMounted = "E0702", Error, "a presenter for a transport the tool is not on";

    // E08xx: Rust names. E0800 (two names that become the same Rust identifier) is retired:
    // such names are given unique Rust names instead (W0006).
    /// A name that cannot become a Rust identifier.
    InvalidIdent = "E0801", Error, "a name that cannot become a Rust identifier";

    // E09xx: reading an OpenAPI description (`stitchgen import`).
    /// The document is not an OpenAPI description.
    ImportNotOpenApi = "E0900", Error, "the document is not an OpenAPI description";
    /// An OpenAPI (or Swagger) version the importer does not read.
    ImportUnsupportedVersion = "E0901", Error, "an OpenAPI version the importer does not read";
    /// A `$ref` whose file or pointer names nothing.
    ImportRefNowhere = "E0902", Error, "a `$ref` that points nowhere";
    /// A `$ref` to the network or to a file outside the entry document's folder.
    ImportRefOutside = "E0903", Error, "a `$ref` to the network or outside the document's folder";
    /// A loop of references that never reaches a schema.
    ImportRefCycle = "E0904", Error, "a loop of bare `$ref`s";
    /// Something OpenAPI requires that is missing or of the wrong kind (`paths` that is not a
    /// mapping, a parameter without `name` or `in`).
    ImportInvalid = "E0905", Error, "a construct OpenAPI requires, missing or of the wrong kind";
    /// A description with paths of which no operation could be imported.
    ImportNothing = "E0906", Error, "paths of which no operation could be imported";

    // E10xx: reading the accepted changes of `stitchgen diff --accept`.
    /// An entry of an acceptance file that cannot be read: not a list of mappings, an unknown
    /// key or rule, a missing reason, a date that is not `YYYY-MM-DD`.
    AcceptInvalid = "E1000", Error, "an acceptance file entry that cannot be read";

    // W0xxx: warnings.
    /// A shared type nothing refers to.
    UnusedType = "W0001", Warning, "a shared type nothing refers to";
    /// A view default that repeats the input schema's own `default`.
    RedundantViewDefault = "W0002", Warning, "a tool view default that repeats the schema's `default`";
    /// A known `format` on a schema whose type it cannot describe (`{type: integer, format: email}`).
    FormatNotApplicable = "W0003", Warning, "a `format` that cannot apply to its schema's type";
    /// An `examples` or `example` value its own schema rejects: an annotation, so only a warning.
    ExampleBreaksSchema = "W0004", Warning, "an example its own schema rejects";
    /// Two properties of one object whose names become one Rust field name; the later is suffixed.
    FieldNameCollision = "W0005", Warning, "two properties that share one Rust field name";
    /// A name whose Rust form another name of its scope (or the generated code) already has:
    /// it gets a `_2`, `_3`, … suffix.
    GeneratedNameRenamed = "W0006", Warning, "a name given a suffix to keep its Rust identifier unique";
    /// A tool definition past its byte budget, advertised relaxed.
    ToolOverBudget = "W0007", Warning, "a tool definition past its byte budget";
    /// A declared byte limit that cannot be reached, or so large that a caller can make the server
    /// hold that much for one request.
    UnusualLimit = "W0008", Warning, "a byte limit that cannot be reached or is unusually large";
    /// More tools than a client profile takes in one request (`--profile`).
    ProfileToolCap = "W0009", Warning, "more tools than a client profile takes in one request";
    /// Something the DSL cannot express, imported in the documented lowered form.
    ImportLowered = "W0900", Warning, "an OpenAPI construct lowered to what a contract expresses";
    /// An accepted change that matches no change of the diff: accepted for nothing, or misspelled.
    AcceptUnmatched = "W1000", Warning, "an accepted change that matches no change";
    /// An acceptance past its `expires` date: the change counts again.
    AcceptExpired = "W1001", Warning, "an acceptance past its expiry date";
}
