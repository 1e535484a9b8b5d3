//! Grading one answer through a backend of [`crate::llm`]: grading's prompt, schema and
//! validator, and nothing else.

use serde_json::Value;

use super::{
    GradeError, GradeFuture, GradeRequest, Grader, SHAPE, TOOL_DESCRIPTION, TOOL_NAME,
    build_prompt, grade_schema, validate_grade,
};
use crate::llm::{Ask, Auth, HttpConfig, Llm, MessagesClient};
use crate::quiz::OpenGrade;

/// Grades through whichever backend it was given.
#[derive(Debug, Clone)]
pub struct LlmGrader {
    llm: Llm,
}

impl LlmGrader {
    pub fn new(llm: Llm) -> Self {
        Self { llm }
    }

    async fn grade_one(&self, request: &GradeRequest) -> Result<OpenGrade, GradeError> {
        let prompt = build_prompt(&request.question, &request.rubric, &request.answer);
        let schema = grade_schema();
        let ask = Ask {
            system: &prompt.system,
            user: &prompt.user,
            tool: TOOL_NAME,
            description: TOOL_DESCRIPTION,
            schema: &schema,
            what: "grade",
            shape: SHAPE,
        };
        self.llm.ask(&ask, &validate).await
    }
}

/// [`validate_grade`] in the shape the shared call takes: its one failed check.
fn validate(value: &Value) -> Result<OpenGrade, Vec<String>> {
    validate_grade(value).map_err(|check| vec![check])
}

impl Grader for LlmGrader {
    fn grade<'a>(&'a self, request: &'a GradeRequest) -> GradeFuture<'a> {
        Box::pin(self.grade_one(request))
    }

    fn name(&self) -> &'static str {
        self.llm.name()
    }
}

/// Grades through `POST {base}/v1/messages`.
#[derive(Debug, Clone)]
pub struct HttpGrader(LlmGrader);

impl HttpGrader {
    pub fn new(
        base_url: &str,
        model: &str,
        auth: Auth,
        config: HttpConfig,
    ) -> Result<Self, GradeError> {
        let client = MessagesClient::new(base_url, model, auth, config)?;
        Ok(Self(LlmGrader::new(Llm::Messages(client))))
    }
}

impl Grader for HttpGrader {
    fn grade<'a>(&'a self, request: &'a GradeRequest) -> GradeFuture<'a> {
        self.0.grade(request)
    }

    fn name(&self) -> &'static str {
        self.0.name()
    }
}

/// What one run of the CLI means for a grade, as grading's CLI backend reads it.
#[cfg(test)]
pub(crate) fn interpret_output(
    credentials: &str,
    code: Option<i32>,
    stdout: &str,
    stderr: &str,
) -> Result<OpenGrade, GradeError> {
    let output = crate::llm::structured_output("grade", credentials, code, stdout, stderr)?;
    validate(&output).map_err(|checks| GradeError::InvalidOutput {
        what: "grade",
        attempts: 1,
        checks,
        raw: output.to_string(),
    })
}

#[cfg(test)]
mod cli_tests;
