import { Reference } from '@mikro-orm/core';
import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Authorized,
  Ctx,
  FieldResolver,
  Info,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { User } from '../accounts/user.entity';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { authenticate, secretFor } from './client-caller';
import { Client } from './client.entity';
import { ClientSearchInput, CreateClientInput, UpdateClientInput } from './client.inputs';
import {
  createClient,
  deleteClient,
  getClient,
  getOwnClient,
  listAllClients,
  listOwnClients,
  updateClient,
  verifyClient,
} from './clients.service';
import { pathReference } from '../common/validation/uuid';

@ObjectType()
export class ClientPage extends PagedType(Client) {}

/**
 * Registered third-party clients (semantics §3.2, contract #11 and #12). Required
 * authentication goes through `authenticate`, which also records the caller for the
 * owner-only `secret`; permissions, scopes and ownership are checked by the service
 * after the client is loaded (404 before 403, §1.1.2).
 */
@Resolver(() => Client)
export class ClientResolver {
  @Authorized()
  @Mutation(() => Client, { description: 'POST /client: registers a client (scope create:client).' })
  async createClient(
    @Arg('input', () => CreateClientInput) input: CreateClientInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Client> {
    return createClient(ctx.em, await authenticate(ctx, info), input, ctx.accounts.clientSecrets);
  }

  @Authorized()
  @Query(() => ClientPage, {
    description: "GET /client: the caller's clients, oldest first (scope read:client:list).",
  })
  async clients(
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ClientPage> {
    return listOwnClients(ctx.em, await authenticate(ctx, info), page);
  }

  @Query(() => Client, {
    description: 'GET /client/{client_reference}: any client, without authentication (`secret` is null).',
  })
  client(
    @Arg('client_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Client> {
    return getClient(ctx.em, pathReference(reference, 'client_reference'));
  }

  @Authorized()
  @Query(() => Client, {
    description:
      "GET /client/{client_reference}/full: the caller's own client with its secret (scope read:client).",
  })
  async clientFull(
    @Arg('client_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Client> {
    const viewer = await authenticate(ctx, info);
    return getOwnClient(ctx.em, viewer, pathReference(reference, 'client_reference'));
  }

  @Authorized()
  @Query(() => ClientPage, {
    description: 'POST /client/all: every client, optionally by name substring (permission client:list_all).',
  })
  async allClients(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => ClientSearchInput) input: ClientSearchInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ClientPage> {
    return listAllClients(ctx.em, await authenticate(ctx, info), input, page);
  }

  @Authorized()
  @Mutation(() => Client, {
    description: '#12 PUT /client/{client_reference}: the owner updates the client (scope update:client).',
  })
  async updateClient(
    @Arg('client_reference', () => String) reference: string,
    @Arg('input', () => UpdateClientInput) input: UpdateClientInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Client> {
    const viewer = await authenticate(ctx, info);
    const secrets = ctx.accounts.clientSecrets;
    return updateClient(ctx.em, viewer, pathReference(reference, 'client_reference'), input, secrets);
  }

  @Authorized()
  @Mutation(() => Client, {
    description:
      '#11 DELETE /client/{client_reference}: deletes the client with its token requests and tokens ' +
      '(owner, or permission client:delete_admin; scope delete:client).',
  })
  async deleteClient(
    @Arg('client_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Client> {
    const viewer = await authenticate(ctx, info);
    return deleteClient(ctx.em, viewer, pathReference(reference, 'client_reference'));
  }

  @Authorized()
  @Mutation(() => Client, {
    description:
      'POST /client/{client_reference}/verify: marks the client verified (permission client:verify).',
  })
  async verifyClient(
    @Arg('client_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Client> {
    const viewer = await authenticate(ctx, info);
    return verifyClient(ctx.em, viewer, pathReference(reference, 'client_reference'));
  }

  @FieldResolver(() => User, { description: 'The owner.' })
  user(@Root() client: Client): Promise<User> {
    return Reference.create(client.user).loadOrFail();
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "The 128-character secret for the client's owner; null for anyone else (semantics §1.6).",
  })
  secret(
    @Root() client: Client,
    @Info() info: GraphQLResolveInfo,
    @Ctx() ctx: RequestContext,
  ): string | null {
    return secretFor(info, client, ctx.accounts.clientSecrets);
  }
}
