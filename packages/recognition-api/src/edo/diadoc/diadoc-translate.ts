import type { EmployeeCreateInput, EmployeeUpdateInput, SendInput } from '../edo.port.js';

/**
 * Spec shapes → Diadoc request bodies (reference/diadoc-api.md §4). Pure functions, tested one by one.
 */

/**
 * `MessageToPost`: `FromBoxId` is the configured box; `TypeNamedId {Name, Version}` becomes the string
 * `TypeNamedId = Name` plus `Version`; the resolved mode (send-mode.ts) becomes `IsDraft` or `DelaySend`.
 */
export function toMessageToPost(fromBoxId: string, input: SendInput): Record<string, unknown> {
  return {
    FromBoxId: fromBoxId,
    ToBoxId: input.ToBoxId,
    ...(input.mode === 'draft' ? { IsDraft: true } : {}),
    ...(input.mode === 'delaySend' ? { DelaySend: true } : {}),
    DocumentAttachments: input.DocumentAttachments.map((a) => ({
      TypeNamedId: a.TypeNamedId.Name,
      Version: a.TypeNamedId.Version,
      ...(a.Function !== undefined ? { Function: a.Function } : {}),
      SignedContent: {
        Content: a.SignedContent.Content,
        ...(a.SignedContent.Signature ? { Signature: a.SignedContent.Signature } : {}),
        ...(a.SignedContent.SignWithTestSignature ? { SignWithTestSignature: true } : {}),
      },
      ...(a.Metadata ? { Metadata: a.Metadata } : {}),
      ...(a.Comment !== undefined ? { Comment: a.Comment } : {}),
      ...(a.CustomDocumentId !== undefined ? { CustomDocumentId: a.CustomDocumentId } : {}),
      ...(a.NeedRecipientSignature !== undefined ? { NeedRecipientSignature: a.NeedRecipientSignature } : {}),
    })),
  };
}

/** `EmployeeToCreate`: the spec's `Credentials.Login` string nests as `Credentials.Login.Login` with the FullName. */
export function toEmployeeToCreate(input: EmployeeCreateInput): Record<string, unknown> {
  const p = input.Permissions;
  return {
    Credentials: { Login: { Login: input.Credentials.Login, FullName: input.Credentials.FullName } },
    ...(input.Position !== undefined ? { Position: input.Position } : {}),
    CanBeInvitedForChat: input.CanBeInvitedForChat ?? false,
    Permissions: {
      IsAdministrator: p.IsAdministrator,
      DocumentAccessLevel: p.DocumentAccessLevel,
      ...(p.UserDepartmentId !== undefined ? { UserDepartmentId: p.UserDepartmentId } : {}),
      ...(p.SelectedDepartmentIds !== undefined ? { SelectedDepartmentIds: p.SelectedDepartmentIds } : {}),
      ...(p.Actions !== undefined ? { Actions: p.Actions } : {}),
    },
  };
}

/** `EmployeeToUpdate`: each given field in its patch wrapper; absent fields are not sent (= unchanged). */
export function toEmployeeToUpdate(input: EmployeeUpdateInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input.Position !== undefined) out.Position = { Position: input.Position };
  if (input.CanBeInvitedForChat !== undefined) out.CanBeInvitedForChat = { CanBeInvitedForChat: input.CanBeInvitedForChat };
  const p = input.Permissions;
  if (p) {
    const perms: Record<string, unknown> = {};
    if (p.UserDepartmentId !== undefined) perms.Department = { DepartmentId: p.UserDepartmentId };
    if (p.IsAdministrator !== undefined) perms.IsAdministrator = { IsAdministrator: p.IsAdministrator };
    if (p.DocumentAccessLevel !== undefined) perms.DocumentAccessLevel = { DocumentAccessLevel: p.DocumentAccessLevel };
    if (p.SelectedDepartmentIds !== undefined) perms.SelectedDepartments = { SelectedDepartmentIds: p.SelectedDepartmentIds };
    if (p.Actions !== undefined) perms.Actions = p.Actions;
    if (p.AuthorizationPermission !== undefined) perms.AuthorizationPermission = p.AuthorizationPermission;
    out.Permissions = perms;
  }
  return out;
}
